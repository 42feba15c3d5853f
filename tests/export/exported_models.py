"""Exported fixture parsers shared by tests/export and tests/runtime: each archive is trained (when
needed) and exported once per test process, whichever directory's tests ask first."""

import os
from pathlib import Path
from typing import Optional

from tests.conftest import FIXTURES, REPO_ROOT

TEACHER_ARCHIVE = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"
RAW_TEXT_CARD = REPO_ROOT / "tests" / "export" / "cards" / "parser_ewt_green_nlp_raw_text.md"
_CACHE: dict[str, Path] = {}


# name -> fixture config trained for one epoch: barely trained, so greedy heads are rarely trees
# and decoding takes the MST path
CONFIGS = {
    "all_features": "experiment.jsonnet",  # characters, UPOS in and out, 2 BiLSTM layers
    "words_only": "experiment_words_only.jsonnet",
}  # no characters, no UPOS


def train_fixture_archive(name: str, base: Path) -> Path:
    from allennlp.commands.train import train_model_from_file

    serialization_dir = base / f"{name}_run"
    cwd = os.getcwd()
    os.chdir(REPO_ROOT)
    try:
        train_model_from_file(str(FIXTURES / "parser" / CONFIGS[name]), str(serialization_dir), force=True)
    finally:
        os.chdir(cwd)
    return serialization_dir / "model.tar.gz"


def exported(name: str, archive: Path, base: Path, card: Optional[Path] = None) -> Path:
    """The runtime folder of `archive`, exported on first request."""
    from green_nlp.export import export_archive

    if name not in _CACHE:
        _CACHE[name] = export_archive(archive, base / name, card=card)
    return _CACHE[name]


def archive_of(name: str, base: Path, quickstart_archive: Path) -> Path:
    if name == "teacher":
        return TEACHER_ARCHIVE
    if name == "quickstart":
        return quickstart_archive
    key = "archive:" + name
    if key not in _CACHE:
        _CACHE[key] = train_fixture_archive(name, base)
    return _CACHE[key]
