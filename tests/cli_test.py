"""`green-nlp`: AllenNLP subcommands with green_nlp registered, from any folder; quiet `--silent`."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from green_nlp.dataset_readers import read_conllu
from tests.conftest import FIXTURES

ARCHIVE = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"


def _green_nlp(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600
    )


def test_console_script_is_installed():
    assert (Path(sys.executable).parent / "green-nlp").exists() or shutil.which("green-nlp")


def test_green_subcommand_works_outside_the_clone(tmp_path: Path):
    """`allennlp green-predict` needs `.allennlp_plugins` in the working directory; `green-nlp` does not."""
    assert not (tmp_path / ".allennlp_plugins").exists()
    sentences = list(read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu"))[:5]
    inputs = tmp_path / "in.jsonl"
    inputs.write_text("".join(json.dumps({"words": s.words, "upos": s.upos}) + "\n" for s in sentences))
    archive = tmp_path / "elsewhere" / "parser.tar.gz"
    archive.parent.mkdir()
    shutil.copy(ARCHIVE, archive)
    result = _green_nlp(
        ["green-predict", str(archive), str(inputs), "--output-file", "out.conllu", "--no-progress"], cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr[-3000:]
    blocks = [block for block in (tmp_path / "out.conllu").read_text().split("\n\n") if block.strip()]
    assert len(blocks) == 5
    assert "5 lines predicted, 0 skipped" in result.stderr


def test_plain_allennlp_outside_the_clone_needs_the_plugin(tmp_path: Path):
    """The failure `green-nlp` exists for: documented in the README, checked so the advice stays true."""
    result = subprocess.run(
        [str(Path(sys.executable).parent / "allennlp"), "green-predict", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert result.returncode != 0 and "invalid choice" in result.stderr


def test_configs_lists_the_training_configs(tmp_path: Path):
    result = _green_nlp(["configs"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    listed = result.stdout.splitlines()
    assert "parser/quickstart.jsonnet" in listed and "ldnet/tagger.jsonnet" in listed


def test_silent_predict_writes_no_info_lines(tmp_path: Path):
    inputs = tmp_path / "in.jsonl"
    inputs.write_text('{"words": ["The", "cat", "sat"], "upos": ["DET", "NOUN", "VERB"]}\n')
    command = [
        str(Path(sys.executable).parent / "allennlp"),
        "predict",
        str(ARCHIVE),
        str(inputs),
        "--silent",
        "--output-file",
        str(tmp_path / "out.txt"),
        "--include-package",
        "green_nlp",
    ]
    result = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    info = [line for line in result.stderr.splitlines() if " - INFO - " in line]
    # what AllenNLP logs before it imports green_nlp (the plugin lines) is out of green_nlp's reach
    assert all(" - allennlp.common.plugins - " in line for line in info), info
    assert (tmp_path / "out.txt").read_text().strip()
    loud = subprocess.run(
        [part for part in command if part != "--silent"], capture_output=True, text=True, cwd=tmp_path, timeout=600
    )
    assert loud.stderr.count(" - INFO - ") > len(info) + 20  # without --silent AllenNLP's INFO log is kept


def _predict(tmp_path: Path, *extra: str, env: Optional[dict] = None) -> subprocess.CompletedProcess:
    inputs = tmp_path / "in.jsonl"
    inputs.write_text('{"words": ["The", "cat", "sat"], "upos": ["DET", "NOUN", "VERB"]}\n')
    command = ["predict", str(ARCHIVE), str(inputs), "--silent", "--output-file", str(tmp_path / "out.txt"), *extra]
    return subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", *command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--predictor-args", "{bad"], "green-nlp predict: --predictor-args is not JSON: Expecting property name"),
        (["--predictor-args", "[1]"], "green-nlp predict: --predictor-args must be a JSON object"),
        (["--predictor-args", '{"output_format": "xml"}'], "output_format must be one of conllu, json, got 'xml'"),
        (["--predictor-args", '{"max_sentence_length": 0}'], "max_sentence_length must be a positive whole number"),
        (["--predictor", "no_such_predictor"], "'no_such_predictor' is not a registered name for 'Predictor'"),
        (["--cuda-device", "7"], "specified a GPU but none is available"),
        (["--predictor-args", '{"output_fromat": "json"}'], "unexpected keyword argument 'output_fromat'"),
    ],
)
def test_predict_settings_that_cannot_work_get_one_message_and_exit_2(tmp_path: Path, extra, message):
    result = _predict(tmp_path, *extra)
    assert result.returncode == 2, result.stderr[-3000:]
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_the_traceback_is_there_when_asked_for(tmp_path: Path):
    result = _predict(tmp_path, "--predictor-args", '{"output_format": "xml"}', env={"GREEN_NLP_TRACEBACK": "1"})
    assert result.returncode == 1
    assert "Traceback" in result.stderr and "ConfigurationError: output_format must be one of" in result.stderr


def test_good_predictor_args_still_predict(tmp_path: Path):
    result = _predict(tmp_path, "--predictor-args", '{"output_format": "json"}')
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads((tmp_path / "out.txt").read_text().splitlines()[0])


def test_version_is_green_nlp_s_own(tmp_path: Path):
    import green_nlp

    result = _green_nlp(["--version"], cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith(f"green-nlp {green_nlp.__version__} (AllenNLP ")


@pytest.mark.parametrize("typo, meant", [("prase", "parse"), ("trian", "train"), ("green-predct", "green-predict")])
def test_a_mistyped_command_gets_the_one_meant(tmp_path: Path, typo, meant):
    result = _green_nlp([typo, "x"], cwd=tmp_path)
    assert result.returncode == 2
    assert f"unknown command {typo!r} (did you mean {meant!r}?)" in result.stderr


def test_without_allennlp_an_unknown_command_is_named_not_blamed_on_the_stack(monkeypatch):
    import importlib.util

    from green_nlp import cli_commands as cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "allennlp" else real(name, *a))
    assert "unknown command 'frobnicate'. Runtime commands: parse" in cli.unknown_command("frobnicate")
    assert cli.unknown_command("green-export") is None and cli.unknown_command("count-instances") is None
    monkeypatch.undo()
    assert cli.unknown_command("frobnicate") is None  # AllenNLP decides: a plugin may add commands


def test_green_predict_silent_keeps_only_warnings_and_the_summary(tmp_path: Path):
    inputs = tmp_path / "in.jsonl"
    inputs.write_text('{"words": ["The", "cat", "sat"], "upos": ["DET", "NOUN", "VERB"]}\n')
    command = ["green-predict", str(ARCHIVE), str(inputs), "--output-file", "out.conllu", "--no-progress"]
    quiet, loud = _green_nlp([*command, "--silent"], cwd=tmp_path), _green_nlp(command, cwd=tmp_path)
    assert quiet.returncode == 0 and loud.returncode == 0, quiet.stderr[-2000:]
    info = [line for line in quiet.stderr.splitlines() if " - INFO - " in line]
    assert all(" - allennlp.common.plugins - " in line for line in info), info  # logged before green_nlp loads
    assert "1 line predicted, 0 skipped" in quiet.stderr
    assert loud.stderr.count(" - INFO - ") > len(info) + 20


@pytest.mark.parametrize(
    "args", [["parse", "en-ewt-parser", ""], ["classify", "en-sst2-sentiment", "x.txt", "-o", " "]]
)
def test_an_empty_file_name_is_refused_by_name_not_read_as_the_current_folder(args, capsys):
    from green_nlp.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    assert "an empty file name: give a file" in capsys.readouterr().err
