"""The server's length-cut parser batches: the same texts' trees as the runtime's, in order."""

import pytest

from green_nlp.runtime.errors import InputError
from green_nlp.serve.parser_batching import length_runs, parse_texts

LONG = (
    "The committee that the mayor appointed last spring finally published its long report on the river, "
    "the bridges and the old harbour district yesterday."
)
TEXTS = ["Dogs bark.", "Yes.", LONG, "Hi. How are you today?", "The cat sat on the mat."]


def test_runs_cover_every_sentence_once_and_keep_padding_small():
    lengths = [3, 40, 5, 4, 38, 12, 3, 60]
    runs = length_runs(lengths, budget=16)
    assert sorted(i for run in runs for i in run) == list(range(len(lengths)))
    for run in runs:
        assert [lengths[i] for i in run] == sorted(lengths[i] for i in run)
        assert sum(lengths[run[-1]] - lengths[i] for i in run) <= 16 * len(run)
    assert len(runs) > 1 and length_runs([7] * 50) == [list(range(50))]


def test_trees_go_back_to_their_texts(parser):
    docs = parse_texts(parser, TEXTS)
    expected = [parser.parse(text) for text in TEXTS]
    assert len(docs) == len(TEXTS)
    for doc, alone in zip(docs, expected):
        assert [(s.words, s.text) for s in doc] == [(s.words, s.text) for s in alone]
    assert parse_texts(parser, [TEXTS[4]])[0].to_json() == expected[4].to_json()


def test_an_empty_text_is_refused_so_the_batcher_retries_text_by_text(parser):
    """An empty text is an InputError (issue 44: not an empty parse counted as predicted); the micro-batcher
    then runs each text of the batch alone, so only that text's slot fails (tests/serve/api_test.py)."""
    with pytest.raises(InputError, match="text is empty"):
        parse_texts(parser, ["Dogs bark.", "", "Yes."])
