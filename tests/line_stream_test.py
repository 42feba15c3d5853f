"""The torch-free streaming core shared by `allennlp green-predict` and `green-nlp parse|tag|classify`."""

import io
import json
from pathlib import Path

import pytest

from green_nlp.line_stream import LineModel, LineStreamer, UsageError, decode_line, json_or_text, parse_shard
from green_nlp.runtime.line_inputs import text_or_tokens


def test_decode_line_names_the_bad_byte_and_refuses_nul():
    assert decode_line("café".encode()) == ("café", None)
    text, why = decode_line(b"caf\xe9 au lait")
    assert text is None and "0xe9" in why and "column 4" in why
    text, why = decode_line(b"a\x00b")
    assert text is None and "NUL" in why and "column 2" in why


def test_decode_line_drops_a_byte_order_mark():
    assert decode_line("\ufeffThe cat.".encode()) == ("The cat.", None)


def test_json_or_text_reads_objects_and_refuses_broken_ones():
    assert json_or_text("The cat sat.") == "The cat sat."
    assert json_or_text('{"text": "A b."}') == "A b."
    assert json_or_text('{"sentence": "A b."}') == "A b."
    for bad in ('{"text": "unclosed', '{"words": ["a"]}', '{"text": ["a", "b"]}'):
        with pytest.raises(ValueError):
            json_or_text(bad)


def test_a_line_that_gives_its_input_twice_is_refused():
    """Which of two inputs a reader took was a silent choice; the same text under both names is one."""
    assert json_or_text('{"text": "A b.", "sentence": "A b."}') == "A b."
    with pytest.raises(ValueError, match="'sentence' and 'text' hold different texts"):
        json_or_text('{"text": "A b.", "sentence": "C d."}')
    with pytest.raises(ValueError, match="gives both 'words' and 'text': give one"):
        text_or_tokens('{"text": "A b.", "words": ["C", "d"]}')


def test_a_parse_json_line_without_an_input_names_every_field_parse_reads():
    """parse and tag read words too; a refusal that named only the text fields hid that way in."""
    with pytest.raises(ValueError, match="^JSON line needs one of the fields 'text', 'sentence' or 'words'$"):
        text_or_tokens('{"txt": "A b."}')
    assert text_or_tokens('{"sentence": "A b."}') == "A b."


@pytest.mark.parametrize("words", ['"abc"', '["a", "b"]', "null"])
def test_a_text_models_json_line_with_words_says_it_reads_a_text_whatever_the_words(words):
    """`{"words": "abc"}` was told to make its words a list of strings, which classify then refused
    for having no text: say at once that a text is what it reads."""
    with pytest.raises(ValueError, match=r"^this model reads a text \(field 'text' or 'sentence'\), not tokens"):
        json_or_text(f'{{"words": {words}}}')
    with pytest.raises(ValueError, match="^JSON line needs one of the fields 'text', 'sentence'$"):
        json_or_text('{"txt": "A b."}')
    with pytest.raises(ValueError, match="gives both 'words' and 'text': give one"):
        json_or_text('{"text": "A b.", "words": ["a", "b"]}')


def test_parse_shard_rejects_what_cannot_work():
    assert parse_shard("1/4") == (1, 4)
    for bad in ("4/4", "-1/2", "1", "a/b", "0/0"):
        with pytest.raises(UsageError):
            parse_shard(bad)


def _upper_model(fail_on: str = "") -> LineModel:
    def predict(texts: list[str]) -> list[str]:
        if any(fail_on and fail_on in text for text in texts):
            raise RuntimeError(f"model failed on {fail_on!r}")
        return [text.upper() for text in texts]

    return LineModel(load=json_or_text, predict_batch=predict, dump=lambda result: result + "\n")


def _numbered_model(fail_on: str = "") -> LineModel:
    from green_nlp.line_stream import LineRecords, json_error, json_record

    model = _upper_model(fail_on)
    model.records = LineRecords(ok=lambda number, text: json_record(number, {"text": text}), error=json_error)
    model.warning = lambda text: "shouted" if text.endswith("!") else None
    return model


def test_a_file_whose_first_line_end_is_a_lone_cr_ends_lines_at_lf_crlf_and_lone_cr_alike(tmp_path: Path):
    from green_nlp.line_stream import count_lines, read_lines, split_lines

    path = tmp_path / "in.txt"
    path.write_bytes(b"a\rb\r\nc\n\r\nd\r")
    assert [raw for _, raw in read_lines(path)] == [b"a", b"b", b"c", b"", b"d"]
    assert count_lines(path) == 5
    assert [number for number, _ in read_lines(path, 1, 3)] == [2, 3]
    # a \r\n cut between two chunks is one line end, not two (nor a lone CR saying the file is an old Mac's)
    import green_nlp.line_stream as line_stream

    chunk, line_stream._CHUNK_BYTES = line_stream._CHUNK_BYTES, 11
    try:
        assert list(split_lines(io.BytesIO(b"x" * 10 + b"\r\ny\rz"))) == [b"x" * 10, b"y\rz"]
        assert list(split_lines(io.BytesIO(b"x" * 10 + b"\ry\r\nz"))) == [b"x" * 10, b"y", b"z"]
    finally:
        line_stream._CHUNK_BYTES = chunk


def test_a_lone_cr_inside_a_line_of_an_lf_or_crlf_file_stays_in_it(tmp_path: Path):
    """A stray carriage return in a review split it into two records, and every later line number
    was one off the line an editor and `wc -l` show."""
    from green_nlp.line_stream import count_lines, read_lines

    path = tmp_path / "in.txt"
    for data, lines in (
        (b"one\ntwo has a stray\rcarriage return\nthree\n", [b"one", b"two has a stray\rcarriage return", b"three"]),
        (b"one\r\ntwo\rstray\r\nthree\r", [b"one", b"two\rstray", b"three"]),  # CRLF, and a last line's CR
        (b"only\rone line\n", [b"only", b"one line"]),  # a lone CR first: an old Mac file after all
    ):
        path.write_bytes(data)
        assert [raw for _, raw in read_lines(path)] == lines
        assert count_lines(path) == len(lines)


def _reference_lines(data: bytes) -> list[bytes]:
    """`split_lines` written plainly: the first line end decides; a lone CR ends lines only when it
    is that first one."""
    import re

    first = re.search(rb"\r\n|\r|\n", data)
    lone_cr = first is not None and first.group() == b"\r" and first.end() < len(data)
    lines = re.split(rb"\r\n|\r|\n", data) if lone_cr else data.split(b"\n")
    if lines and lines[-1] == b"":  # the input's last line end ends its last line
        lines.pop()
    return lines if lone_cr else [line[:-1] if line.endswith(b"\r") else line for line in lines]


def test_chunked_line_split_matches_a_regex_split_at_every_chunk_size():
    """Whatever the chunk boundaries (inside a \\r\\n, a line longer than a chunk, a chunk without a
    line end), the lines are those of splitting the whole input at \\r\\n, \\r and \\n, a last line
    without an end counted, other control bytes (\\x0b, \\x0c, \\x1c, \\x85) kept inside lines."""
    import random

    import green_nlp.line_stream as line_stream

    pieces = [b"a", b"bc", b"\r", b"\n", b"\r\n", b"\n\r", b"\x0b", b"\x0c", b"\x1c", b"\xc2\x85", b"xyz" * 5, b""]
    generator = random.Random(7)
    chunk = line_stream._CHUNK_BYTES
    try:
        for _ in range(300):
            data = b"".join(generator.choice(pieces) for _ in range(generator.randint(0, 30)))
            expected = _reference_lines(data)
            for size in (1, 2, 3, 5, 16, 1 << 20):
                line_stream._CHUNK_BYTES = size
                assert list(line_stream.split_lines(io.BytesIO(data))) == expected, (data, size)
    finally:
        line_stream._CHUNK_BYTES = chunk


def test_an_output_gets_each_record_in_its_own_write_and_a_file_gets_the_same_bytes(tmp_path: Path):
    """A batch's records go out in one call where the output has `writelines`, else one `write` a
    record: a sink that takes records apart (the `allennlp predict` patch's) must see each alone."""

    class WritesOnly:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def write(self, text: str) -> None:
            self.calls.append(text)

        def flush(self) -> None:
            return None

    path = tmp_path / "in.txt"
    path.write_bytes(b"one\n\ntwo\nthree BOOM\nfour\n")
    sink, text = WritesOnly(), io.StringIO()
    for output in (sink, text):
        LineStreamer(_numbered_model(fail_on="BOOM"), batch_size=3).run(path, output, progress=False)  # type: ignore[arg-type]
    assert [json.loads(call)["line"] for call in sink.calls] == [1, 2, 3, 4, 5]  # one record a write
    assert "".join(sink.calls) == text.getvalue()
    plain = _upper_model()  # no records: blank and failed lines write nothing, not an empty record
    sink = WritesOnly()
    LineStreamer(plain, batch_size=2).run(path, sink, progress=False)  # type: ignore[arg-type]
    assert sink.calls == ["ONE\n", "TWO\n", "THREE BOOM\n", "FOUR\n"]


def test_every_line_gets_one_record_in_place_with_its_number(tmp_path: Path):
    """Good, blank, non-UTF-8, broken JSON and model-failing lines; CR-only, CRLF and LF line ends
    in a file whose first line end is a lone CR (an old Mac file: every kind ends a line)."""
    path = tmp_path / "in.txt"
    path.write_bytes(b'one\r\r\ntwo!\rcaf\xe9\n{"text": "three"}\r{broken\nfour BOOM\n   \nfive')
    for batch_size in (1, 2, 3, 32):
        output, errors = io.StringIO(), io.StringIO()
        streamer = LineStreamer(_numbered_model(fail_on="BOOM"), batch_size=batch_size)
        report = streamer.run(path, output, progress=False, errors=errors)
        records = [json.loads(line) for line in output.getvalue().splitlines()]
        assert [record["line"] for record in records] == list(range(1, 10)), batch_size
        assert [record.get("text") for record in records] == ["ONE", None, "TWO!", None, "THREE"] + [None] * 3 + [
            "FIVE"
        ]
        assert records[1]["error"] == records[7]["error"] == "blank line (no text)"
        assert "UTF-8" in records[3]["error"] and "broken JSON" in records[5]["error"]
        assert "RuntimeError" in records[6]["error"]
        assert (report.predicted, report.blank, len(report.errors), report.failed) == (4, 2, 3, 5)
        assert [json.loads(line)["line"] for line in errors.getvalue().splitlines()] == [4, 6, 7]
        assert "4 lines predicted, 3 skipped, 2 blank; 1 line shouted" in report.summary("x", path)


def test_streamer_keeps_order_and_physical_line_numbers(tmp_path: Path):
    path = tmp_path / "in.txt"
    path.write_bytes(b'one\n\ntwo\ncaf\xe9\n{"text": "three"}\n{broken\nfour BOOM\nfive')
    output, errors = io.StringIO(), io.StringIO()
    report = LineStreamer(_upper_model(fail_on="BOOM"), batch_size=3).run(path, output, progress=False, errors=errors)
    assert output.getvalue() == "ONE\nTWO\nTHREE\nFIVE\n"
    assert report.predicted == 4 and report.blank == 1
    records = [json.loads(line) for line in errors.getvalue().splitlines()]
    assert [record["line"] for record in records] == [4, 6, 7]
    assert "UTF-8" in records[0]["error"] and "RuntimeError" in records[2]["error"]
    assert report.errors[0].startswith(f"{path}:4: ")


def test_streamer_rejects_a_batch_size_below_one():
    with pytest.raises(UsageError):
        LineStreamer(_upper_model(), batch_size=0)


# ------------------------------------------------------------ the runtime CLI on bad lines (issue 34)
def test_json_fields_of_the_wrong_type_or_with_a_nul_are_refused():
    for bad, why in (
        ('{"text": null}', "'text' must be a string, got null"),
        ('{"sentence": 42}', "'sentence' must be a string, got a number"),
        ('{"text": "a\\u0000b"}', "'text' holds a NUL character at position 2"),
        ("{'text': 'python quotes'}", "broken JSON object"),
        ("{not json} at all", "broken JSON object"),
    ):
        with pytest.raises(ValueError, match=why):
            json_or_text(bad)
    assert json_or_text("text with a {brace}") == "text with a {brace}"


def test_green_nlp_parse_reports_each_bad_line_and_keeps_the_others_in_order(tmp_path, capsys):
    """`green-nlp parse` with the shipped model on tests/bad_inputs/raw_text_mixed.txt: BOM, latin-1,
    blank, NUL, mistyped and broken JSON, a NUL by JSON escape and a 1,001-word line."""
    from green_nlp.cli import run_runtime
    from green_nlp.runtime import load
    from tests.conftest import BAD_INPUTS

    source = BAD_INPUTS / "raw_text_mixed.txt"
    out, errors = tmp_path / "out.jsonl", tmp_path / "errors.jsonl"
    assert (
        run_runtime(
            [
                "parse",
                "en-ewt-parser",
                str(source),
                "--format",
                "json",
                "-o",
                str(out),
                "--errors-file",
                str(errors),
                "--no-progress",
                "--batch-size",
                "4",
            ]
        )
        == 0
    )
    reported = {record["line"]: record["error"] for record in map(json.loads, errors.read_text().splitlines())}
    assert sorted(reported) == [3, 5, 6, 7, 10, 11]
    assert "UTF-8" in reported[3] and "NUL" in reported[5] and "NUL" in reported[10]
    assert "max_sentence_length" in reported[11] and "broken JSON" in reported[7]
    outputs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [record["line"] for record in outputs] == list(range(1, 13))  # one record per line, in place
    kept = {1: "The cat sat on the mat.", 2: "A dog barked .", 9: "Birds sing .", 12: "The last line has no newline ."}
    nlp = load("en-ewt-parser")
    nlp.segmenter.split_sentences = False
    for record in outputs:
        if record["line"] in kept:
            expected = json.loads(json.dumps(nlp.parse(kept[record["line"]]).to_json()))
            assert record == {"line": record["line"], **expected}
        elif record["line"] in (4, 8):
            assert record == {"line": record["line"], "error": "blank line (no text)"}
        else:
            assert record == {"line": record["line"], "error": reported[record["line"]]}
    assert "\x00" not in out.read_text(encoding="utf-8")
    assert "4 lines predicted, 6 skipped, 2 blank" in capsys.readouterr().err


def test_lone_surrogates_and_deep_nesting_are_line_errors_not_crashes():
    with pytest.raises(ValueError, match="'text' holds a lone surrogate"):
        json_or_text('{"text": "a \\ud800 b"}')  # would fail only when the output is written as UTF-8
    with pytest.raises(ValueError, match="nested too deeply"):
        json_or_text('{"text": ' + "[" * 100000 + "]" * 100000 + "}")  # a RecursionError, not a ValueError


def test_check_input_and_output_say_what_is_wrong_with_a_path(tmp_path: Path):
    from green_nlp.line_stream import STDIN, check_input, check_output

    check_input(STDIN)
    (tmp_path / "in.txt").write_text("a\n")
    check_input(tmp_path / "in.txt")
    with pytest.raises(UsageError, match="is a folder, not an input file"):
        check_input(tmp_path)
    with pytest.raises(UsageError, match="input file not found"):
        check_input(tmp_path / "missing.txt")
    check_output(None)
    check_output(tmp_path / "out.txt")
    with pytest.raises(UsageError, match="does not exist"):
        check_output(tmp_path / "missing" / "out.txt")
    with pytest.raises(UsageError, match="it is a folder"):
        check_output(tmp_path)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_a_utf16_file_is_refused_whole_not_read_as_broken_lines(tmp_path, encoding):
    from green_nlp.line_stream import DamagedInput, read_lines

    path = tmp_path / "u.txt"
    text = "The cat sat .\nA dog .\n"
    # utf-16-le writes no byte-order mark: put one first, as Windows tools do
    path.write_bytes(("\ufeff" + text).encode(encoding) if encoding == "utf-16-le" else text.encode(encoding))
    with pytest.raises(DamagedInput, match=r"it is UTF-16 text .* convert it first, e.g. iconv -f UTF-16 -t UTF-8 "):
        list(read_lines(path))
    path.write_bytes(("\ufeff" + text).encode("utf-8"))  # a UTF-8 byte-order mark is read as before
    assert [raw for _, raw in read_lines(path)] == ["\ufeffThe cat sat .".encode(), b"A dog ."]


def test_a_lines_failure_keeps_its_class_only_where_no_check_wrote_the_message():
    """A checked input's ValueError is written for the user ('ValueError: ' added nothing); an error
    no check foresaw keeps its class, which helps to trace it."""
    from green_nlp.line_stream import failure_message

    assert failure_message(ValueError("'upos' has 1 tags for 2 'words'")) == "'upos' has 1 tags for 2 'words'"
    assert failure_message(TypeError("words must be a list")) == "words must be a list"
    assert failure_message(IndexError("list index out of range")) == "IndexError: list index out of range"
    assert failure_message(RuntimeError("model failed")) == "RuntimeError: model failed"
    assert failure_message(ValueError()) == "ValueError: "
