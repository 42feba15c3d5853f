"""The whole-review benchmark's ways of combining sentences (the benchmark itself needs IMDB and minutes)."""

import pytest

from benchmarks.dan.long_texts import MARKUP, combine
from green_nlp.runtime.classifier import Classification

LABELS = ["positive", "negative"]


def _result(positive: float, logits: list[float], ngrams: int = 3) -> Classification:
    label = "positive" if positive >= 0.5 else "negative"
    return Classification(label, {"positive": positive, "negative": 1 - positive}, logits, ngrams)


@pytest.mark.parametrize(
    ("how", "expected"),
    # two mildly negative sentences and one strongly positive: the logits' mean follows the strong one,
    # the vote the majority, the probabilities' mean the strong one less
    [("mean of logits", "positive"), ("majority vote", "negative"), ("mean of probabilities", "positive")],
)
def test_each_combination_reads_the_sentences_its_own_way(how, expected):
    sentences = [_result(0.4, [-0.2, 0.2]), _result(0.45, [-0.1, 0.1]), _result(0.99, [2.3, -2.3])]
    assert combine(sentences, LABELS, how) == expected


def test_sentences_without_a_known_ngram_are_left_out_of_every_combination():
    unknown = [_result(0.1, [-1.1, 1.1], ngrams=0), _result(0.1, [-1.1, 1.1], ngrams=0)]
    known = _result(0.7, [0.4, -0.4])
    for how in ("mean of logits", "majority vote", "mean of probabilities"):
        assert combine(unknown + [known], LABELS, how) == "positive"


def test_imdb_markup_becomes_a_space():
    assert MARKUP.sub(" ", "Fine.<br /><br />Really<BR>good") == "Fine.  Really good"
