"""`allennlp predict` and `allennlp evaluate` (the real commands, `--include-package green_nlp`) refuse an
output file that is a file they read, before anything is written: AllenNLP emptied the input (predict)
or replaced the evaluation data with its metrics (evaluate), exit status 0."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from green_nlp.patches.output_over_input import overwritten
from tests.conftest import FIXTURES, REPO_ROOT

PARSER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"
DATA = FIXTURES / "ud" / "multiword_and_empty_nodes.conllu"


def _allennlp(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    # PYTHONPATH: this checkout's green_nlp (a shared virtual environment's editable install may name another)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    command = [sys.executable, "-m", "allennlp", *args, "--include-package", "green_nlp"]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def copies(tmp_path: Path) -> Path:
    shutil.copy(PARSER, tmp_path / "model.tar.gz")
    shutil.copy(DATA, tmp_path / "data.conllu")
    return tmp_path


@pytest.mark.parametrize("output", ["./sub/../data.conllu", "model.tar.gz"], ids=["input", "archive"])
def test_predict_refuses_to_write_over_a_file_it_reads(copies: Path, output: str):
    (copies / "sub").mkdir()
    before = {name: (copies / name).read_bytes() for name in ("data.conllu", "model.tar.gz")}
    result = _allennlp(
        copies, "predict", "model.tar.gz", "data.conllu", "--use-dataset-reader", "--output-file", output, "--silent"
    )
    assert result.returncode != 0
    assert f"--output-file {output} is the " in result.stderr and "would overwrite it" in result.stderr
    assert {name: (copies / name).read_bytes() for name in before} == before


def test_evaluate_refuses_to_write_over_the_data_it_evaluates(copies: Path):
    before = (copies / "data.conllu").read_bytes()
    result = _allennlp(copies, "evaluate", "model.tar.gz", "data.conllu", "--output-file", "data.conllu")
    assert result.returncode != 0
    assert "--output-file data.conllu is the input file data.conllu" in result.stderr
    assert (copies / "data.conllu").read_bytes() == before


def test_standard_input_counts_as_the_file_it_was_redirected_from(copies: Path):
    before = (copies / "data.conllu").read_bytes()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    command = [sys.executable, "-m", "allennlp", "predict", "model.tar.gz", "-", "--output-file", "data.conllu"]
    with open(copies / "data.conllu", "rb") as stdin:
        result = subprocess.run(
            [*command, "--include-package", "green_nlp"],
            cwd=copies,
            env=env,
            stdin=stdin,
            capture_output=True,
            timeout=300,
        )
    assert result.returncode != 0
    assert b"is the file standard input reads" in result.stderr
    assert (copies / "data.conllu").read_bytes() == before


def test_only_outputs_that_name_a_file_read_are_refused(tmp_path: Path):
    data = tmp_path / "in.txt"
    data.write_text("a line\n", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(data)
    assert overwritten({"the input file": str(data)}, {"--output-file": str(tmp_path / "link.txt")})
    assert overwritten({"the input file": str(data)}, {"--output-file": str(tmp_path / "other.txt")}) is None
    assert overwritten({"the input file": str(data)}, {"--output-file": None}) is None
    evaluated = {"the archive": str(tmp_path / "model.tar.gz"), "the input file": str(data)}
    assert overwritten(evaluated, {"--predictions-output-file": str(data)}) == (
        f"--predictions-output-file {data} is the input file {data}: writing there would overwrite it; "
        "give another file name"
    )
