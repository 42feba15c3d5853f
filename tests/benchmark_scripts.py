"""Helpers for tests of the scripts in benchmarks/ (not a package): import one by name, fake a data folder."""
import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

from tests.conftest import FIXTURES, REPO_ROOT


def load_benchmark(name: str) -> ModuleType:
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def fixture_treebank(tmp_path: Path, monkeypatch, treebank: str, file_prefix: str) -> Path:
    """A GREEN_NLP_DATA folder holding `treebank` with fixture dev and test files (no train file)."""
    folder = tmp_path / "data" / "ud" / treebank
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "ud" / "synthetic-dev.conllu", folder / f"{file_prefix}-ud-dev.conllu")
    shutil.copy(FIXTURES / "ud" / "synthetic-tiny.conllu", folder / f"{file_prefix}-ud-test.conllu")
    monkeypatch.setenv("GREEN_NLP_DATA", str(tmp_path / "data"))
    return folder
