"""`allennlp green-predict` with the fixture parser archive: order, sharding, bad lines, memory."""

import inspect
import io
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.commands.green_predict import (
    BulkPredictor,
    build_predictor,
    count_lines,
    parse_shard,
    read_lines,
    shard_bounds,
)
from green_nlp.dataset_readers import read_conllu
from tests.conftest import FIXTURES, REPO_ROOT

ARCHIVE = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"  # needs gold UPOS: JSON input with "upos"


def _sentences() -> list[dict]:
    return [{"words": s.words, "upos": s.upos} for s in read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu")]


@pytest.fixture(scope="module")
def bad_input(tmp_path_factory) -> tuple[Path, list[list[str]], list[int]]:
    """Good JSON lines with five kinds of bad line and a blank one; returns (file, good words, bad line numbers)."""
    sentences = _sentences()[:30]
    bad = {
        6: b'{"words": ["unclosed"\n',
        11: b"caf\xe9 latin-1 bytes\r\n",  # CRLF in an LF file
        15: b'{"words": []}\n',
        20: json.dumps({"words": ["a", "b"], "upos": ["DET"]}).encode() + b"\r\n",
        27: b"\n",
    }
    lines, good, number = [], [], 0
    for sentence in sentences:
        number += 1
        while number in bad:
            lines.append(bad[number])
            number += 1
        lines.append(json.dumps(sentence).encode() + b"\n")
        good.append(sentence["words"])
    path = tmp_path_factory.mktemp("bulk") / "input.jsonl"
    path.write_bytes(b"".join(lines))
    return path, good, [n for n in sorted(bad) if n != 27]


@pytest.fixture(scope="module")
def predictor():
    return build_predictor(str(ARCHIVE), predictor_args='{"output_format": "json"}')


def _words_out(text: str) -> list[list[str]]:
    """The words of the predicted records (error records are left out)."""
    records = [json.loads(line) for line in text.splitlines()]
    return [record["sentences"][0]["words"] for record in records if "sentences" in record]


def test_cli_keeps_order_and_reports_bad_lines(bad_input, tmp_path):
    path, good, bad_lines = bad_input
    output, errors = tmp_path / "out.jsonl", tmp_path / "errors.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "green-predict",
            str(ARCHIVE),
            str(path),
            "--output-file",
            str(output),
            "--errors-file",
            str(errors),
            "--batch-size",
            "4",
            "--predictor-args",
            '{"output_format": "json"}',
            "--include-package",
            "green_nlp",
            "--fail-on-error",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1 and "--fail-on-error" in result.stderr, result.stderr[-3000:]
    assert _words_out(output.read_text()) == good
    records = [json.loads(line) for line in output.read_text().splitlines()]  # one per line, in place
    assert [record["line"] for record in records] == list(range(1, len(good) + len(bad_lines) + 2))
    assert [record["line"] for record in records if "error" in record] == sorted(bad_lines + [27])
    assert records[26]["error"] == "blank line (no text)"
    reported = [json.loads(line) for line in errors.read_text().splitlines()]
    assert [r["line"] for r in reported] == bad_lines
    assert "UTF-8" in reported[1]["error"] and "no tokens" in reported[2]["error"]
    for line in bad_lines:
        assert f"{path}:{line}:" in result.stderr
    assert f"{len(good)} lines predicted, {len(bad_lines)} skipped, 1 blank" in result.stderr


def test_shards_concatenated_in_order_equal_one_run(bad_input, predictor):
    path, good, bad_lines = bad_input
    whole = io.StringIO()
    full_report = BulkPredictor(predictor, batch_size=5).run(path, whole, progress=False)
    parts, skipped = [], []
    for index in range(3):
        part = io.StringIO()
        report = BulkPredictor(predictor, batch_size=5).run(path, part, shard=(index, 3), progress=False)
        parts.append(part.getvalue())
        skipped += report.errors
    assert "".join(parts) == whole.getvalue()
    assert _words_out(whole.getvalue()) == good
    assert skipped == full_report.errors and [int(e.split(":")[1]) for e in skipped] == bad_lines


def test_shard_bounds_cover_every_line_exactly_once():
    for total in range(0, 40):
        for count in range(1, 8):
            covered = [line for index in range(count) for line in range(*shard_bounds(total, index, count))]
            assert covered == list(range(total)), (total, count)


@pytest.mark.parametrize("text", ["1", "3/3", "-1/2", "a/b", "0/0"])
def test_bad_shard_specs_are_rejected(text):
    with pytest.raises(ConfigurationError, match="--shard"):
        parse_shard(text)


def test_a_model_that_cannot_take_the_input_stops_the_run(predictor, tmp_path):
    """Raw text for a parser that needs gold UPOS: every line would fail, so it stops with the reason."""
    path = tmp_path / "raw.txt"
    path.write_text("the cat sat .\na dog ran .\n")
    with pytest.raises(ConfigurationError, match="UPOS"):
        BulkPredictor(predictor).run(path, io.StringIO(), progress=False)


def test_input_is_streamed_not_materialised(predictor, tmp_path):
    """A generator over the file; peak Python memory stays far below the file size (a reader that
    held the file would need more than the file itself)."""
    line = (json.dumps(_sentences()[0]) + "\n").encode()
    path = tmp_path / "large.jsonl"
    with open(path, "wb") as stream:
        for _ in range(100):
            stream.write(line * 1000)  # 100,000 lines
    size = path.stat().st_size
    assert size > 10_000_000
    assert inspect.isgeneratorfunction(read_lines)
    tracemalloc.start()
    try:
        assert count_lines(path) == 100_000
        assert sum(1 for _ in read_lines(path)) == 100_000
        output = io.StringIO()
        report = BulkPredictor(predictor, batch_size=50).run(path, output, shard=(399, 400), progress=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.predicted == 250
    assert peak < size / 5, f"peak {peak:,} bytes for a {size:,}-byte file"


def test_other_predictors_work_too_tagger_on_raw_text(tmp_path):
    """Any line-based predictor: the LD-Net fixture tagger on raw text, sharded in two."""
    archive = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"
    if not archive.exists():
        pytest.skip(f"no tagger fixture archive at {archive}")
    tagger = build_predictor(str(archive))
    path = tmp_path / "text.txt"
    lines = ["Paul lives in New York .", "EU rejects German call .", "Peter Blackburn", "Brussels , Belgium ."]
    path.write_text("\n".join(lines) + "\n")
    outputs = []
    for index in range(2):
        part = io.StringIO()
        BulkPredictor(tagger, batch_size=3).run(path, part, shard=(index, 2), progress=False)
        outputs += [json.loads(line) for line in part.getvalue().splitlines()]
    assert [" ".join(o["words"]) for o in outputs] == lines
    assert all(len(o["tags"]) == len(o["words"]) for o in outputs)
