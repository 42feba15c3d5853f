"""`green-nlp parse`: streams a file through an exported parser, reports bad lines, keeps order."""

import json
import subprocess
import sys
from pathlib import Path

from green_nlp.runtime import load


def _run(args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600
    )


def test_parse_reports_bad_lines_and_keeps_the_rest_in_order(parser_folders, tmp_path: Path):
    folder = parser_folders["quickstart"]
    good = ["The cat sat on the mat.", "Dogs bark.", "A bird sang in the tree.", "It rained."]
    lines = [
        good[0].encode(),
        b"",
        good[1].encode(),
        b"caf\xe9 au lait",
        b'{"text": "unclosed',
        json.dumps({"text": good[2]}).encode(),
        b"a\x00b",
        good[3].encode(),
    ]
    source = tmp_path / "in.txt"
    source.write_bytes(b"\n".join(lines) + b"\n")
    result = _run(
        ["parse", str(folder), str(source), "-o", "out.conllu", "--errors-file", "errors.jsonl", "--batch-size", "2"],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    expected = "".join(
        doc.to_conllu().rstrip("\n") + "\n\n" for doc in load(folder, precision="fp32").parse_many(good, batch_size=4)
    )
    assert (tmp_path / "out.conllu").read_text(encoding="utf-8") == expected
    errors = [json.loads(line) for line in (tmp_path / "errors.jsonl").read_text().splitlines()]
    assert [error["line"] for error in errors] == [4, 5, 7]
    assert "4 lines predicted, 3 skipped, 1 blank" in result.stderr
    assert f"{source}:4: not valid UTF-8" in result.stderr
    # a window of 3 lines holds a bad one: the good lines of that window are still parsed, in order
    windowed = _run(["parse", str(folder), str(source), "-o", "w.conllu", "--sort-window", "3"], cwd=tmp_path)
    assert windowed.returncode == 0, windowed.stderr
    assert (tmp_path / "w.conllu").read_text(encoding="utf-8") == expected


def test_settings_that_cannot_batch_are_usage_errors(parser_folders, tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n")
    for option in ("--sort-window", "--batch-size"):
        result = _run(["parse", str(parser_folders["quickstart"]), str(source), option, "0"], cwd=tmp_path)
        assert result.returncode == 2 and f"{option} must be positive" in result.stderr
        assert "Traceback" not in result.stderr


def test_parse_json_output_and_a_clear_error_for_a_missing_model(parser_folders, tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n")
    result = _run(["parse", str(parser_folders["quickstart"]), str(source), "--format", "json"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert [word for sentence in record["sentences"] for word in sentence["words"]] == ["The", "cat", "sat", "."]
    missing = _run(["parse", "no-such-model", str(source)], cwd=tmp_path)
    assert missing.returncode == 2 and "no-such-model" in missing.stderr and "Traceback" not in missing.stderr


def test_classify_refuses_a_parser(parser_folders, tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n")
    result = _run(["classify", str(parser_folders["quickstart"]), str(source)], cwd=tmp_path)
    assert result.returncode != 0 and "does not classify" in result.stderr
