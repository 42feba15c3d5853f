"""Classification files from a stranger's hands (issue 34): a UTF-8 BOM before the SST-2 header is
accepted (the header is still recognised), a NUL byte is an error naming file, line and column.
JSON lines Python cannot read, damaged .gz files and files with no label are errors naming the file
(and line); labels are read as the .tsv reader reads them; CR-only line ends end lines."""

import gzip
import json

import pytest

from green_nlp.dataset_readers.ngram_text import NgramTextReader
from green_nlp.dataset_readers.text_classification import TextFormatError, read_examples, reader_examples
from tests.conftest import BAD_INPUTS


def test_a_byte_order_mark_before_the_header_is_accepted():
    examples = list(read_examples(str(BAD_INPUTS / "classifier_bom.tsv")))
    assert [(e.label, e.text) for e in examples] == [("1", "a fine film"), ("0", "a dull film")]


def test_a_nul_byte_is_an_error(tmp_path):
    path = tmp_path / "nul.tsv"
    path.write_text("label\tsentence\n1\ta fine film\n0\ta du\x00ll film\n", encoding="utf-8")
    with pytest.raises(TextFormatError, match=rf"^{path}:3: holds a NUL byte at column 7"):
        list(read_examples(str(path)))


# ------------------------------------------------------------------------------ JSON lines
def _jsonl(tmp_path, name, *lines):
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_a_first_example_that_mentions_teacher_cache_is_read_not_taken_for_a_header(tmp_path):
    path = _jsonl(
        tmp_path,
        "origin.jsonl",
        json.dumps({"text": "a fine film", "label": "1", "origin": "teacher_cache"}),
        json.dumps({"text": "a dull film", "label": "0"}),
    )
    assert [(e.label, e.text) for e in read_examples(path)] == [("1", "a fine film"), ("0", "a dull film")]
    cache = _jsonl(
        tmp_path,
        "cache.jsonl",
        json.dumps({"teacher_cache": 1, "labels": ["0", "1"]}),
        json.dumps({"text": "a dull film", "label": "0", "logits": [1.0, 0.0]}),
    )
    assert [e.text for e in read_examples(cache)] == ["a dull film"]  # a real header is still skipped


@pytest.mark.parametrize("label", ["true", "false", "1.5", "[1]"])
def test_a_label_that_is_not_a_string_integer_or_null_is_refused_at_its_line(tmp_path, label):
    path = _jsonl(tmp_path, "bool.jsonl", '{"text": "a fine film", "label": "1"}', f'{{"text": "x", "label": {label}}}')
    with pytest.raises(TextFormatError, match=rf"^{path}:2: 'label' must be a string, an integer or null"):
        list(read_examples(path))


def test_labels_are_stripped_and_an_empty_one_refused_as_in_tsv_files(tmp_path):
    path = _jsonl(tmp_path, "padded.jsonl", '{"text": "a fine film", "label": " pos "}', '{"text": "x", "label": 0}')
    assert [e.label for e in read_examples(path)] == ["pos", "0"]
    empty = _jsonl(tmp_path, "empty.jsonl", '{"text": "a fine film", "label": "pos"}', '{"text": "x", "label": " "}')
    with pytest.raises(TextFormatError, match=rf"^{empty}:2: empty label"):
        list(read_examples(empty))


@pytest.mark.parametrize(
    "line, why",
    [
        ('{"text": "x", "label": "0", "n": ' + "9" * 5000 + "}", "holds a number of over 4,300 digits"),
        ('{"text": ' + "[" * 100_000 + "]" * 100_000 + "}", "JSON nested too deeply"),
    ],
)
@pytest.mark.parametrize("number", [1, 2])
def test_json_python_cannot_read_is_an_error_at_its_line(tmp_path, line, why, number):
    good = '{"text": "a fine film", "label": "1"}'
    path = _jsonl(tmp_path, "odd.jsonl", *([line, good] if number == 1 else [good, line]))
    with pytest.raises(TextFormatError, match=rf"^{path}:{number}: {why}"):
        list(read_examples(path))
    # the DAN's reader first looks for a cache header on line 1: that look must not fail either
    with pytest.raises(TextFormatError, match=rf"^{path}:{number}: {why}"):
        list(NgramTextReader().read(path))


def test_a_truncated_or_fake_gzip_file_is_an_error_naming_it(tmp_path):
    lines = "".join(json.dumps({"text": f"film {i} was good", "label": str(i % 2)}) + "\n" for i in range(3000))
    data = gzip.compress(lines.encode())
    truncated = tmp_path / "truncated.jsonl.gz"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(TextFormatError, match=rf"^{truncated}: cannot be read after line \d+: .* ends early"):
        list(read_examples(str(truncated)))
    fake = tmp_path / "fake.jsonl.gz"
    fake.write_text('{"text": "a fine film", "label": "1"}\n')
    with pytest.raises(TextFormatError, match=rf"^{fake}: cannot be read from its start: Not a gzipped file"):
        list(read_examples(str(fake)))


def test_a_missing_file_is_still_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as error:
        list(read_examples(str(tmp_path / "missing.jsonl")))
    assert error.value.filename == str(tmp_path / "missing.jsonl")  # the CLI's hint reads it


def test_a_file_without_any_label_is_refused_when_unlabeled_examples_are_dropped(tmp_path):
    path = _jsonl(tmp_path, "unsup.jsonl", '{"text": "a fine film", "label": null}', '{"text": "x", "label": null}')
    assert [e.label for e in reader_examples(path, "auto", False, "all", 10, None, False)] == [None, None]
    with pytest.raises(TextFormatError, match=rf"^{path}:1: zero labelled examples read: all 2 examples"):
        list(NgramTextReader(skip_unlabeled=True).read(path))


# ------------------------------------------------------------------------------ line ends
def test_a_tsv_file_with_carriage_returns_only_is_read_line_by_line(tmp_path):
    path = tmp_path / "mac.tsv"
    path.write_bytes(b"label\tsentence\r1\ta fine film\r0\ta dull film\r")
    examples = list(read_examples(str(path)))
    assert [(e.label, e.text, e.source) for e in examples] == [
        ("1", "a fine film", f"{path}:2"),
        ("0", "a dull film", f"{path}:3"),
    ]
