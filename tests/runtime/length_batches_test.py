"""Sorting sentences by length across texts: the batches, and that answers do not depend on them."""

import pytest

from green_nlp.runtime import load
from green_nlp.runtime.length_batches import by_length, check_batching, windows

LINES = [
    "a cat sees a dog .",
    "",
    "every teacher trains the model in the city . a student reads .",
    "the dog .",
    "the small cat sees a green dog near the old river .",
    "dogs run .",
    "a student reads a long book about the old city and the river near it .",
    "the cat .",
]


class ShapeRecorder:
    """The real onnxruntime session, with the shape of every batch it was given written down."""

    def __init__(self, session, word_input):
        self.session, self.word_input, self.shapes = session, word_input, []

    def run(self, outputs, feed):
        self.shapes.append(feed[self.word_input].shape)
        return self.session.run(outputs, feed)


def test_by_length_sorts_stably_and_cuts_batches():
    assert by_length([5, 2, 9, 2, 7], 2) == [[1, 3], [0, 4], [2]]
    assert by_length([], 3) == []
    assert [len(batch) for batch in by_length(list(range(10, 0, -1)), 4)] == [4, 4, 2]


def test_windows_stream_any_iterable():
    assert list(windows(iter("abcde"), 2)) == [["a", "b"], ["c", "d"], ["e"]]
    assert list(windows([], 3)) == []


@pytest.mark.parametrize("batch_size, sort_window, setting", [(0, 8, "batch_size"), (4, 0, "sort_window")])
def test_settings_that_cannot_batch_are_refused(batch_size, sort_window, setting):
    with pytest.raises(ValueError, match=setting):
        check_batching(batch_size, sort_window)


def test_parser_answers_do_not_depend_on_batching_and_batches_pad_less(parser_folders):
    nlp = load(parser_folders["quickstart"], threads=1, precision="fp32")
    # the empty text (index 1) gets its error record in place, in every window and batch size
    one_by_one = [
        nlp.parse(line).to_json() if line else {"error": "texts[1] is empty: nothing to parse"} for line in LINES
    ]
    recorder = ShapeRecorder(nlp.session, nlp.inputs.word_input)
    nlp.session = recorder
    for batch_size, sort_window in ((1, 1), (2, 2), (2, 8), (3, 5), (32, 1024)):
        assert [doc.to_json() for doc in nlp.parse_many(iter(LINES), batch_size, sort_window)] == one_by_one
    # sorted across the whole file, batches of 2 pad less than batches of 2 texts in file order
    padded = {}
    for sort_window in (2, 8):
        recorder.shapes = []
        list(nlp.parse_many(LINES, batch_size=2, sort_window=sort_window))
        padded[sort_window] = sum(rows * length for rows, length in recorder.shapes)
        assert all(rows <= 2 for rows, _ in recorder.shapes)
    assert padded[8] < padded[2]
    sentences = [(s["words"], None) for doc in one_by_one for s in doc.get("sentences", [])]
    trees = [tree.heads for tree in nlp.parse_sentences(sentences, batch_size=3, sort_window=4)]
    assert trees == [s["heads"] for doc in one_by_one for s in doc.get("sentences", [])]


def test_an_over_long_sentence_fails_alone_before_any_model_call(parser_folders):
    nlp = load(parser_folders["quickstart"], threads=1)
    recorder = ShapeRecorder(nlp.session, nlp.inputs.word_input)
    nlp.session = recorder
    good, long = list(nlp.parse_many(["a cat .", " ".join(["dog"] * 1001)], batch_size=1))
    assert good.error is None and str(long.error).startswith("texts[1] has a sentence of 1,001 tokens")
    assert "max_sentence_length=1000" in str(long.error)
    assert recorder.shapes == [(1, 3)]  # only the good text reached the model
    with pytest.raises(ValueError, match="sort_window"):
        list(nlp.parse_many(LINES, sort_window=0))
