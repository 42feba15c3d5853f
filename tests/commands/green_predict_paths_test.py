"""`allennlp green-predict`: input and output paths are checked before the archive loads, and `-` reads stdin."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.commands.green_predict import _bulk_predict_from_args
from tests.conftest import FIXTURES, REPO_ROOT

ARCHIVE = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"  # needs gold UPOS: JSON input with "upos"


def _args(input_file: Path, **changes) -> argparse.Namespace:
    # an archive that does not exist: a path error must come first, before any archive is opened
    values = dict(
        archive_file="no-such-archive.tar.gz",
        input_file=input_file,
        output_file=None,
        errors_file=None,
        predictor=None,
        predictor_args="",
        batch_size=4,
        shard="0/1",
        cuda_device=-1,
        overrides="",
        no_progress=True,
        ray=None,
        ray_actors=None,
        ray_cpus_per_actor=1.0,
        ray_gpus_per_actor=0.0,
    )
    values.update(changes)
    return argparse.Namespace(**values)


def test_a_folder_is_named_as_a_folder_not_as_missing(tmp_path: Path):
    with pytest.raises(ConfigurationError, match="is a folder, not an input file"):
        _bulk_predict_from_args(_args(tmp_path))
    with pytest.raises(ConfigurationError, match="input file not found"):
        _bulk_predict_from_args(_args(tmp_path / "missing.txt"))


@pytest.mark.parametrize("option", ["output_file", "errors_file"])
def test_an_output_in_a_missing_folder_is_refused_before_the_archive_loads(tmp_path: Path, option: str):
    source = tmp_path / "in.txt"
    source.write_text("The cat sat.\n")
    target = tmp_path / "no-such-folder" / "out.txt"
    with pytest.raises(ConfigurationError, match=f"folder {tmp_path / 'no-such-folder'} does not exist"):
        _bulk_predict_from_args(_args(source, **{option: target}))


def test_stdin_cannot_be_sharded():
    with pytest.raises(ConfigurationError, match="standard input"):
        _bulk_predict_from_args(_args(Path("-"), shard="1/2"))


def test_dash_reads_standard_input_with_bad_lines_reported():
    words = ["the", "cat", "sees", "a", "dog", "."]
    good = json.dumps({"words": words, "upos": ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"]})
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", "green-predict", str(ARCHIVE), "-", "--include-package", "green_nlp"]
        + ["--predictor-args", '{"output_format": "json"}', "--no-progress"],
        input=(good + "\n").encode() + b"caf\xe9\n" + (good + "\n").encode(),
        cwd=REPO_ROOT,
        capture_output=True,
        timeout=300,
    )
    stderr = result.stderr.decode(errors="replace")
    assert result.returncode == 0, stderr[-3000:]
    outputs = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [output["line"] for output in outputs] == [1, 2, 3]  # one record per line, the bad one in place
    assert [output["sentences"][0]["words"] for output in outputs[::2]] == [words, words]
    assert outputs[1] == {"line": 2, "error": "not valid UTF-8 (byte 0xe9 at column 4)"}
    assert "-:2: not valid UTF-8" in stderr and "2 lines predicted, 1 skipped" in stderr
