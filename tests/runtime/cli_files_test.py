"""`green-nlp parse|classify` and the files around a run: an output naming the input is refused
before anything is opened for writing; a damaged compressed input keeps the lines before the
damage; a pipe is read once, like standard input; a full disk and a closed pipe end the run with a
message or quietly, never a traceback. In-process (`run_runtime`), except where a process is needed."""

import gzip
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from green_nlp.cli import run_runtime
from green_nlp.line_stream import BROKEN_PIPE_STATUS, DamagedInput, check_distinct, read_lines

TEXT = "The cat sat.\nDogs bark.\n"


def _run(args: list[str]) -> int:
    return run_runtime([*args, "--no-progress"])


@pytest.mark.parametrize("command, model", [("parse", "en-ewt-parser"), ("classify", "en-sst2-sentiment")])
@pytest.mark.parametrize("option", ["-o", "--errors-file"])
def test_an_output_naming_the_input_is_refused_and_the_input_kept(tmp_path: Path, capsys, command, model, option):
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")
    os.symlink(source, tmp_path / "link.txt")
    for name in (str(source), str(tmp_path / "link.txt"), str(tmp_path / "." / "in.txt")):
        assert _run([command, model, str(source), option, name]) == 2
        assert "would overwrite it" in capsys.readouterr().err
        assert source.read_text(encoding="utf-8") == TEXT


def test_the_output_and_the_errors_file_must_differ(tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")
    with pytest.raises(ValueError, match="--errors-file .* also given to -o"):
        check_distinct(source, {"-o": tmp_path / "out", "--errors-file": tmp_path / "out"})
    check_distinct(source, {"-o": tmp_path / "out", "--errors-file": None})  # distinct: no error


def _truncated_gzip(path: Path, lines: int = 3000) -> None:
    data = gzip.compress("".join(f"Line {i} is here.\n" for i in range(1, lines + 1)).encode())
    path.write_bytes(data[: len(data) // 2])


def test_a_truncated_gzip_gives_its_lines_then_says_where_it_broke(tmp_path: Path):
    path = tmp_path / "cut.txt.gz"
    _truncated_gzip(path)
    read = []
    with pytest.raises(
        DamagedInput, match=r"cut.txt.gz: cannot be read after line (\d+): the compressed data ends early"
    ):
        for number, raw in read_lines(path):
            read.append((number, raw))
    assert len(read) > 100 and read[-1] == (len(read), f"Line {len(read)} is here.".encode())


def test_a_file_named_gz_that_is_not_gzip_is_refused_from_its_start(tmp_path: Path):
    path = tmp_path / "plain.gz"
    path.write_text(TEXT, encoding="utf-8")
    with pytest.raises(DamagedInput, match="cannot be read from its start: Not a gzipped file"):
        list(read_lines(path))


@pytest.mark.parametrize("command, model", [("parse", "en-ewt-parser"), ("classify", "en-sst2-sentiment")])
def test_the_cli_writes_the_lines_before_the_damage_and_exits_2(tmp_path: Path, capsys, command, model):
    source, out = tmp_path / "cut.txt.gz", tmp_path / "out"
    _truncated_gzip(source)
    numbers: list[int] = []
    with pytest.raises(DamagedInput):
        numbers.extend(number for number, _ in read_lines(source))
    read = numbers[-1]
    assert _run([command, model, str(source), "--format", "json", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{read} lines predicted" in err and f"cannot be read after line {read}" in err and "Traceback" not in err
    assert len(out.read_text(encoding="utf-8").splitlines()) == read


def test_a_pipe_is_read_once_like_standard_input(tmp_path: Path, capsys):
    fifo, out = tmp_path / "pipe", tmp_path / "out.conllu"
    os.mkfifo(fifo)
    writer = subprocess.Popen([sys.executable, "-c", f"open({str(fifo)!r}, 'w').write({TEXT!r})"])
    try:
        assert _run(["parse", "en-ewt-parser", str(fifo), "-o", str(out)]) == 0
    finally:
        writer.wait(timeout=60)
    assert out.read_text(encoding="utf-8").count("# text = ") == 2
    assert _run(["parse", "en-ewt-parser", str(fifo), "--shard", "0/2"]) == 2
    assert "cannot be sharded" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux) for a full disk")
def test_a_full_disk_is_a_message_and_status_2(capsys, tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")
    assert _run(["classify", "en-sst2-sentiment", str(source), "-o", "/dev/full"]) == 2
    assert "cannot write the output: [Errno 28] No space left on device: '/dev/full'" in capsys.readouterr().err
    # the errors file is the one that fails: named, though the records went out
    source.write_bytes(b"The cat sat.\n\xff\n")
    out = tmp_path / "out.jsonl"
    assert _run(["classify", "en-sst2-sentiment", str(source), "-o", str(out), "--errors-file", "/dev/full"]) == 2
    assert "No space left on device: '/dev/full'" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8").count("\n") == 2


def test_a_closed_pipe_ends_the_run_quietly(tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text(TEXT * 2000, encoding="utf-8")
    command = [sys.executable, "-m", "green_nlp.cli", "classify", "en-sst2-sentiment", str(source), "--no-progress"]
    reader = subprocess.Popen(["head", "-c", "10"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    run = subprocess.run(command, stdout=reader.stdin, stderr=subprocess.PIPE, text=True, timeout=300)
    reader.stdin.close()  # type: ignore[union-attr]
    reader.wait(timeout=60)
    assert run.returncode == BROKEN_PIPE_STATUS
    assert "Traceback" not in run.stderr and "BrokenPipeError" not in run.stderr


def test_allennlps_predict_is_refused_an_output_naming_its_input(tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", "predict", "model.tar.gz", str(source), "--output-file", str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "would overwrite it" in run.stderr
    assert source.read_text(encoding="utf-8") == TEXT


def _cli(args: list[str], **options) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "green_nlp.cli", *args, "--no-progress"]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, **options)


def test_standard_input_or_output_redirected_from_the_input_is_refused(tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")
    with open(source, encoding="utf-8") as stdin:  # `- -o in.txt < in.txt`
        run = _cli(["parse", "en-ewt-parser", "-", "-o", str(source)], stdin=stdin)
    assert run.returncode == 2 and "the file standard input reads" in run.stderr
    with open(source, "a", encoding="utf-8") as stdout:  # `in.txt >> in.txt`
        run = subprocess.run(
            [sys.executable, "-m", "green_nlp.cli", "classify", "en-sst2-sentiment", str(source), "--no-progress"],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert run.returncode == 2 and "standard output is the input file" in run.stderr
    assert source.read_text(encoding="utf-8") == TEXT


def test_dash_is_standard_output_and_devices_are_never_the_same_file(tmp_path: Path):
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")
    run = _cli(["classify", "en-sst2-sentiment", str(source), "-o", "-"], cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.count('"label"') == 2 and not (tmp_path / "-").exists()
    run = _cli(["classify", "en-sst2-sentiment", str(source), "-o", os.devnull, "--errors-file", os.devnull])
    assert run.returncode == 0, run.stderr


def test_a_corrupt_gzip_says_the_records_before_may_be_wrong(tmp_path: Path):
    path = tmp_path / "flipped.gz"
    data = bytearray(gzip.compress("".join(f"Line {i} is here.\n" for i in range(3000)).encode()))
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(DamagedInput, match="corrupt|invalid"):
        list(read_lines(path))


@pytest.mark.parametrize(
    "redirect, why",
    [("- <&-", "standard input is closed"), ("{source} >&-", "standard output is closed")],
)
def test_a_closed_standard_stream_is_a_message_not_a_traceback(tmp_path: Path, redirect, why):
    source = tmp_path / "in.txt"
    source.write_text(TEXT, encoding="utf-8")
    command = f"{shlex.quote(sys.executable)} -m green_nlp.cli parse en-ewt-parser --no-progress "
    run = subprocess.run(
        command + redirect.format(source=shlex.quote(str(source))),
        shell=True,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2 and why in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("signal_number, name", [(2, "Ctrl-C"), (15, "SIGTERM")])
def test_a_stopped_run_says_so_and_leaves_whole_records(tmp_path: Path, signal_number: int, name: str):
    """SIGINT (Ctrl-C) or SIGTERM mid-run: a message and status 128 + the signal, no traceback, and
    the output holds whole records only (each sentence block ends)."""
    import signal
    import time

    source, out = tmp_path / "in.txt", tmp_path / "out.conllu"
    source.write_text("The cat sat on the mat.\n" * 200_000, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    run = subprocess.Popen(
        [sys.executable, "-m", "green_nlp.cli", "parse", "en-ewt-parser", str(source), "-o", str(out), "--no-progress"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # as from a terminal: a pytest-xdist worker ignores SIGINT, and a child would inherit that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.2)
        run.send_signal(signal_number)
        _, err = run.communicate(timeout=120)
    finally:
        run.kill()  # a run that did not stop must not parse on after the test
    assert run.returncode == 128 + signal_number, err
    assert f"stopped by {name}: the records written before it are whole" in err and "Traceback" not in err
    text = out.read_text(encoding="utf-8")
    assert text.endswith("\n\n") and text.count("# line = ") == text.count("\n\n") > 0


def test_a_conllu_file_given_to_classify_is_refused_whole(tmp_path: Path, capsys):
    source = tmp_path / "in.conllu"
    source.write_text("# sent_id = 1\n# text = Dogs bark.\n1\tDogs\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert _run(["classify", "en-sst2-sentiment", str(source), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{source}: this looks like CoNLL-U, but the model reads one text per line" in err
    assert not out.exists()
    source.write_text("Dogs bark.\n# text = a comment line of a text file, classified\n", encoding="utf-8")
    assert _run(["classify", "en-sst2-sentiment", str(source), "-o", str(out)]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2


def test_utf16_on_standard_input_is_refused_without_an_empty_summary(tmp_path: Path):
    """It printed '0 lines predicted, 0 skipped, 0 blank' before the refusal, and an iconv command
    with no file to read."""
    source = tmp_path / "u16.txt"
    source.write_bytes(TEXT.encode("utf-16"))
    with open(source, "rb") as stdin:
        run = _cli(["classify", "en-sst2-sentiment", "-"], stdin=stdin)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        "green-nlp classify: -: cannot be read: it is UTF-16 text (it starts with a UTF-16 byte-order mark), and "
        "lines must be UTF-8; convert it first, e.g. pipe it through iconv -f UTF-16 -t UTF-8"
    ]
