"""`benchmarks.parser.lemma_head`: the comparison and the head's word count it reports."""

import numpy as np

from benchmarks.common import committed_folder
from benchmarks.parser.lemma_head import BEFORE, SHIPPED, CountingHead, conllu_lines, differing, one_a_line, token_count
from tests.conftest import FIXTURES

TEXTS = (FIXTURES / "raw_text.txt").read_text(encoding="utf-8").splitlines()


def test_differing_counts_changed_and_missing_outputs():
    assert differing(["a", "b", "c"], ["a", "b", "c"]) == 0
    assert differing(["a", "b", "c"], ["a", "x", "c"]) == 1
    assert differing(["a", "b", "c"], ["a", "b"]) == 1


def test_the_counting_head_counts_word_rows_and_passes_the_answers_on():
    class Session:
        def run(self, names, feed):
            return [feed["states"] + 1]

    head = CountingHead(Session())
    assert head.run(["x"], {"states": np.zeros((1, 3, 4))})[0].sum() == 12
    head.run(["x"], {"states": np.zeros((1, 2, 4))})
    assert head.rows == 5


def test_the_shipped_folder_parses_as_the_one_before_with_the_head_on_fewer_words(tmp_path):
    before = one_a_line(committed_folder("en-ewt-parser", BEFORE, tmp_path / "before"))
    split = one_a_line(SHIPPED)
    assert before._lemma_head is None and split._lemma_head is not None
    head = split._lemma_head = CountingHead(split._lemma_head)
    assert differing(conllu_lines(before, TEXTS), conllu_lines(split, TEXTS)) == 0
    assert 0 < head.rows < token_count(split, TEXTS) / 2
