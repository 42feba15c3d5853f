"""`--frequency-file` keeps the most frequent n-grams: the ranking by hand on a three-line file."""

from green_nlp.commands.green_prune_ngrams import ranked_ngram_ids


def test_frequency_file_ranks_most_frequent_first_ties_in_vocabulary_order(tmp_path):
    counts_file = tmp_path / "counts.tsv"
    counts_file.write_text("1\tgood good film\n0\tbad film\n1\tfilm\n", encoding="utf-8")
    ngrams = ["bad", "film", "good", "dull"]  # vocabulary ids 2, 3, 4, 5
    # counts: film 3, good 2, bad 1, dull 0
    assert ranked_ngram_ids(ngrams, str.split, str(counts_file)) == [3, 4, 2, 5]
    # ties (bad and dull: 0 each here) and absent n-grams keep vocabulary order
    counts_file.write_text("1\tfilm good\n", encoding="utf-8")
    assert ranked_ngram_ids(ngrams, str.split, str(counts_file)) == [3, 4, 2, 5]
    assert ranked_ngram_ids(ngrams, str.split, None) == [2, 3, 4, 5]
