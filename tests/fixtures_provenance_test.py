"""Fixtures that mirror the real data folder's layout hold none of its content (the real data is
read in place, never copied into the repository)."""
import gzip
from pathlib import Path
from typing import Set

import pytest

from tests.conftest import FIXTURES, require_data

MIRROR = FIXTURES / "ldnet" / "data"
MIRRORED_FILES = sorted(p.relative_to(MIRROR) for p in MIRROR.rglob("*") if p.is_file() and p.name != "README.md")


def blocks(path: Path) -> Set[str]:
    """Blank-line separated blocks (sentences in CoNLL files), -DOCSTART- blocks left out."""
    text = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
    return {b.strip() for b in text.split("\n\n") if b.strip() and "-DOCSTART-" not in b}


def vector_lines(path: Path) -> Set[str]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return {line.rstrip("\n") for line in lines}


def test_the_mirror_covers_the_files_the_configs_read():
    assert {"ner/conll2003/eng.train", "emb/glove.6B.50d.green_nlp_vocab.txt.gz"} <= {str(p) for p in MIRRORED_FILES}


@pytest.mark.parametrize("relative", MIRRORED_FILES, ids=str)
def test_no_fixture_sentence_or_vector_is_copied_from_the_real_data(relative):
    real = require_data(*relative.parts)
    fixture = MIRROR / relative
    if fixture.suffix == ".gz":
        shared = vector_lines(fixture) & vector_lines(real)
    else:
        shared = blocks(fixture) & blocks(real)
    assert not shared, f"{fixture} holds {len(shared)} pieces of {real}"
