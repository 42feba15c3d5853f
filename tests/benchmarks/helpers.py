"""Helpers for tests of the benchmark and experiment scripts: a data folder with a fixture treebank."""

import shutil
from pathlib import Path

from tests.conftest import FIXTURES


def fixture_treebank(tmp_path: Path, monkeypatch, treebank: str, file_prefix: str) -> Path:
    """A GREEN_NLP_DATA folder holding `treebank` with fixture dev and test files (no train file)."""
    folder = tmp_path / "data" / "ud" / treebank
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "ud" / "synthetic-dev.conllu", folder / f"{file_prefix}-ud-dev.conllu")
    shutil.copy(FIXTURES / "ud" / "synthetic-tiny.conllu", folder / f"{file_prefix}-ud-test.conllu")
    monkeypatch.setenv("GREEN_NLP_DATA", str(tmp_path / "data"))
    return folder
