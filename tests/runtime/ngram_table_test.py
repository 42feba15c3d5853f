"""`NgramTable`: exact n-gram ids, by integer keys in numpy for a batch and by strings in a dict for one text."""

import random

import numpy as np
import pytest

from green_nlp.runtime.ngram_extractor import SMALL_BATCH, NgramExtractor
from green_nlp.runtime.ngram_table import NgramTable


def brute_force(tokens, vocabulary, low, high):
    """Every n-gram of the tokens, 1-grams first, looked up as a string."""
    lookup = {ngram: i + 2 for i, ngram in enumerate(vocabulary)}
    grams = [" ".join(tokens[i : i + n]) for n in range(low, high + 1) for i in range(len(tokens) - n + 1)]
    return [lookup[g] for g in grams if g in lookup]


def random_case(seed, words=40, count=300, longest=4):
    rng = random.Random(seed)
    names = [f"w{i}" for i in range(words)]
    vocabulary = sorted({" ".join(rng.choices(names, k=rng.randint(1, longest))) for _ in range(count)})
    # texts use a few words outside the vocabulary too
    texts = [rng.choices(names + ["zz", "yy"], k=rng.randint(0, 30)) for _ in range(60)]
    return vocabulary, texts


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ngram_range", [(1, 4), (2, 3), (1, 1), (3, 6)])
@pytest.mark.parametrize("dict_after", [0, 30, 10_000])  # single texts: dict at once, after 30, never
def test_batch_and_single_text_ids_are_the_brute_forces(seed, ngram_range, dict_after, monkeypatch):
    monkeypatch.setattr("green_nlp.runtime.ngram_table.DICT_AFTER_TEXTS", dict_after)
    vocabulary, texts = random_case(seed)
    table = NgramTable(vocabulary, boundary_token="\x00\x00")
    assert table.packs
    tokens = [token for text in texts for token in [*text, "\x00\x00"]][:-1]
    digits = table.word_digits(tokens)
    text_of_position = np.cumsum(digits == table.boundary)
    ids, text = table.lookup(digits, text_of_position, *ngram_range)
    order = np.argsort(text, kind="stable")
    counts = np.bincount(text, minlength=len(texts))
    rows = np.split(ids[order], np.cumsum(counts)[:-1])
    for tokens_of_text, row in zip(texts, rows):
        expected = brute_force(tokens_of_text, vocabulary, *ngram_range)
        assert row.tolist() == expected
        assert table.text_ids(tokens_of_text, *ngram_range) == expected
    assert (table._strings_built is not None) == (dict_after < len(texts))


def test_no_ngram_crosses_a_text_boundary():
    table = NgramTable(["aa bb", "bb", "aa"], boundary_token="\x00\x00")
    digits = table.word_digits(["aa", "\x00\x00", "bb"])
    ids, text = table.lookup(digits, np.cumsum(digits == table.boundary), 1, 4)
    assert ids.tolist() == [4, 3] and text.tolist() == [0, 1]


def test_a_vocabulary_too_large_for_int64_keys_falls_back_to_python():
    words = [f"w{i}" for i in range(700)]
    vocabulary = [*words, " ".join(words[:7]), " ".join(words[3:9])]  # 703^7 > 2^63
    extractor = NgramExtractor(vocabulary, ngram_range=(1, 7))
    assert not extractor.table.packs
    texts = [" ".join(words[:12]), " ".join(words[2:10]), "w1 w2", "", "w5 zz w6"] * 2
    assert len(texts) >= SMALL_BATCH
    ids, counts = extractor.ids(texts)
    expected = [brute_force(text.split(), vocabulary, 1, 7) for text in texts]
    assert counts.tolist() == [len(row) for row in expected]
    assert ids.tolist() == [i for row in expected for i in row]


def test_duplicates_a_boundary_word_and_a_first_id_of_zero_are_refused():
    with pytest.raises(ValueError, match="first_id must be at least 1"):
        NgramTable(["aa"], first_id=0)
    with pytest.raises(ValueError, match="n-gram 'aa bb' appears twice"):
        NgramTable(["aa", "aa bb", "aa bb"])
    with pytest.raises(ValueError, match="boundary token 'xx' is a vocabulary word"):
        NgramTable(["aa xx"], boundary_token="xx")


def test_every_key_lies_within_the_window_of_its_home_slot():
    vocabulary, _ = random_case(7, words=300, count=5000)
    table = NgramTable(vocabulary)
    table._arrays()  # built on first use
    stored = np.flatnonzero(table._table_keys >= 0)
    home = table._home(table._table_keys[stored])
    assert ((stored - home >= 0) & (stored - home < len(table._window))).all()
    assert len(stored) == sum(" " in ngram for ngram in vocabulary)


def test_displaced_and_absent_keys_are_found_or_missed_as_a_dict_would():
    vocabulary, _ = random_case(11, words=200, count=6000)
    table = NgramTable(vocabulary)
    table._arrays()
    stored = np.flatnonzero(table._table_keys >= 0)
    displaced = stored[stored != table._home(table._table_keys[stored])]
    assert len(displaced), "no key sits past its home slot: the second round is not exercised"
    longer = [ngram for ngram in vocabulary if " " in ngram]
    expected = {
        table._keys(table.word_digits(n.split()), np.array([len(n.split())]))[0]: i for i, n in enumerate(longer)
    }
    rng = np.random.default_rng(0)
    absent = rng.integers(1, table.base**2, 3000)
    keys = np.concatenate([table._table_keys[displaced], np.array(list(expected)), absent])
    ids = np.array([vocabulary.index(longer[expected[k]]) + 2 if k in expected else 0 for k in keys.tolist()])
    assert (table._get(keys) == ids).all()


def test_skipped_tokens_are_dropped_and_may_not_be_vocabulary_words():
    table = NgramTable(["aa bb", "bb", "aa"], boundary_token="\x01", skip_tokens=("a", "1"))
    assert table.word_digits(["aa", "a", "1", "bb"]).tolist() == table.word_digits(["aa", "bb"]).tolist()
    assert table.text_ids(["aa", "1", "bb", "a"], 1, 4) == table.text_ids(["aa", "bb"], 1, 4) == [4, 3, 2]
    with pytest.raises(ValueError, match="skipped token 'aa' is a vocabulary word"):
        NgramTable(["aa bb"], skip_tokens=("aa",))
