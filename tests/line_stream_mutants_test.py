"""A fatal error stops a run only when its first lines (FATAL_AFTER_LINES, or all of a shorter input)
fail whole with it, however they are cut into batches; a later batch that fails whole with the same
error is reported line by line and the run goes on."""

import io

import pytest

from green_nlp import line_stream
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


@pytest.mark.parametrize("batch_size", [1, 2, 3, 512])
def test_lines_of_the_wrong_kind_first_do_not_stop_a_run_that_has_others(tmp_path, batch_size):
    """Which lines survived depended on the batch size: with batches of one, the first line alone
    decided that the whole input was of the wrong kind."""
    path = tmp_path / "in.txt"
    path.write_text("bad one\n\nbad two\nok three\nbad four\n", encoding="utf-8")
    output = io.StringIO()
    report = LineStreamer(_model(), batch_size=batch_size).run(path, output, progress=False)
    assert output.getvalue() == "OK THREE\n"
    assert report.predicted == 1 and report.blank == 1
    assert [error.split(":")[1] for error in report.errors] == ["1", "3", "5"]


def _stops_writing_nothing(path, text: str, batch_size: int) -> None:
    path.write_text(text, encoding="utf-8")
    output = io.StringIO()
    with pytest.raises(_WrongKind):
        LineStreamer(_model(), batch_size=batch_size).run(path, output, progress=False)
    assert output.getvalue() == ""


@pytest.mark.parametrize("batch_size", [1, 2, 512])
def test_an_input_of_the_wrong_kind_throughout_stops_the_run_and_writes_nothing(tmp_path, batch_size):
    _stops_writing_nothing(tmp_path / "in.txt", "bad one\n\nbad two\nbad three\n", batch_size)


@pytest.mark.parametrize("batch_size", [1, 2, 4])
def test_the_run_stops_once_its_first_lines_all_failed_so(tmp_path, monkeypatch, batch_size):
    monkeypatch.setattr(line_stream, "FATAL_AFTER_LINES", 4)
    path = tmp_path / "in.txt"
    _stops_writing_nothing(path, "bad 1\nbad 2\nbad 3\nbad 4\nok five\n", batch_size)
    path.write_text("bad 1\nbad 2\nbad 3\nok four\n", encoding="utf-8")
    assert LineStreamer(_model(), batch_size=batch_size).run(path, io.StringIO(), progress=False).predicted == 1


def test_a_file_of_blank_lines_is_written_as_blank_records(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("\n \n\n", encoding="utf-8")
    report = LineStreamer(_model(), batch_size=1).run(path, io.StringIO(), progress=False)
    assert report.blank == 3 and report.predicted == 0 and report.errors == []


@pytest.mark.parametrize("word", [" ", "\u00a0", "  \t"])
def test_a_word_of_whitespace_only_is_refused_naming_field_and_item(word):
    with pytest.raises(ValueError, match=r"field 'words': item 2 is empty or only whitespace"):
        check_json_fields({"words": ["a", word]})
    assert check_json_fields({"words": ["a", " b "]}) == {"words": ["a", " b "]}
