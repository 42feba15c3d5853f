"""benchmarks/ is a package whose scripts run as modules from the repository root
(`python -m benchmarks.parser.ewt`): no file reaches its imports by editing the import path, and
every module imports under its package name."""

import importlib
import re

import pytest

from tests.conftest import REPO_ROOT

BENCHMARKS = REPO_ROOT / "benchmarks"
SOURCES = sorted(BENCHMARKS.rglob("*.py"))
MODULES = [
    ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts) for path in SOURCES if path.name != "__init__.py"
]
PATH_HACKS = re.compile(r"sys\.path\.(insert|append)|site\.addsitedir|spec_from_file_location")


def test_no_benchmark_edits_the_import_path():
    assert [str(path.relative_to(REPO_ROOT)) for path in SOURCES if PATH_HACKS.search(path.read_text())] == []


def test_every_folder_of_python_files_is_a_package():
    assert (
        sorted(
            str(folder.relative_to(REPO_ROOT))
            for folder in {path.parent for path in SOURCES}
            if not (folder / "__init__.py").exists()
        )
        == []
    )


@pytest.mark.parametrize("name", MODULES)
def test_every_module_imports_under_its_package_name(name):
    assert importlib.import_module(name).__name__ == name


def test_no_benchmark_file_names_the_lab():
    """benchmarks/ (code, run scripts, reports, results) keeps only the measurements behind the README
    and docs/results.md: a study of experiments/ runs, scores and stores itself, so nothing here
    may name it (a module, a path or a command)."""
    offenders = [
        f"{path.relative_to(REPO_ROOT)}:{number}"
        for path in sorted(BENCHMARKS.rglob("*"))
        if path.is_file() and path.suffix in {".py", ".sh", ".md", ".json", ".jsonnet", ".libsonnet"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bexperiments\b", line)
    ]
    assert offenders == [], "benchmarks/ names experiments/ at " + ", ".join(offenders)
