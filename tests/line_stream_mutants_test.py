"""A fatal error stops a run only when the very first batch fails whole; a later batch that fails
whole with the same error is reported line by line and the run goes on."""

import io

import pytest

from green_nlp.line_stream import LineModel, LineStreamer, check_json_fields


class _WrongKind(Exception):
    """What a model raises for input of a kind it cannot take."""


def _predict(texts):
    if any(text.startswith("bad") for text in texts):
        raise _WrongKind("cannot take this kind of line")
    return [text.upper() for text in texts]


def _model():
    return LineModel(load=str, predict_batch=_predict, dump=lambda result: result + "\n", fatal_errors=(_WrongKind,))


def test_a_later_batch_failing_whole_is_reported_line_by_line(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("ok one\nok two\nbad three\nbad four\nok five\n", encoding="utf-8")
    output = io.StringIO()
    report = LineStreamer(_model(), batch_size=2).run(path, output, progress=False)
    assert output.getvalue() == "OK ONE\nOK TWO\nOK FIVE\n"
    assert report.predicted == 3
    assert report.errors == [
        f"{path}:3: _WrongKind: cannot take this kind of line",
        f"{path}:4: _WrongKind: cannot take this kind of line",
    ]


def test_a_first_batch_failing_whole_stops_the_run(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("bad one\nbad two\nok three\n", encoding="utf-8")
    output = io.StringIO()
    with pytest.raises(_WrongKind):
        LineStreamer(_model(), batch_size=2).run(path, output, progress=False)
    assert output.getvalue() == ""


@pytest.mark.parametrize("word", [" ", "\u00a0", "  \t"])
def test_a_word_of_whitespace_only_is_refused_naming_field_and_item(word):
    with pytest.raises(ValueError, match=r"field 'words': item 2 is empty or only whitespace"):
        check_json_fields({"words": ["a", word]})
    assert check_json_fields({"words": ["a", " b "]}) == {"words": ["a", " b "]}
