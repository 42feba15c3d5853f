"""The LD-Net fixtures stand in for real data files but hold none of their content (the real data
is read in place, never copied into the repository)."""

import gzip
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, require_data

LDNET = FIXTURES / "ldnet" / "data"
# each hand-written fixture -> the real file it stands in for (names differ on purpose)
STANDS_IN_FOR = {
    "ner_conll2003_train.txt": ("ner", "conll2003", "eng.train"),
    "ner_conll2003_dev.txt": ("ner", "conll2003", "eng.testa"),
    "ner_conll2003_test.txt": ("ner", "conll2003", "eng.testb"),
    "ner_wnut17_train.txt": ("ner", "wnut17", "wnut17train.conll"),
    "ner_wnut17_dev.txt": ("ner", "wnut17", "emerging.dev.conll"),
    "ner_wnut17_test.txt": ("ner", "wnut17", "emerging.test.annotated"),
    "chunking_train.txt": ("chunk", "conll2000", "train.txt"),
    "chunking_test.txt": ("chunk", "conll2000", "test.txt"),
    "word_vectors_50d.txt.gz": ("emb", "glove.6B.50d.green_nlp_vocab.txt.gz"),
}


def blocks(path: Path) -> set[str]:
    """Blank-line separated blocks (sentences in CoNLL files), -DOCSTART- blocks left out."""
    text = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
    return {b.strip() for b in text.split("\n\n") if b.strip() and "-DOCSTART-" not in b}


def vector_lines(path: Path) -> set[str]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return {line.rstrip("\n") for line in lines}


def test_every_fixture_is_checked_against_the_file_it_stands_in_for():
    on_disk = {p.name for p in LDNET.iterdir() if p.is_file() and p.name != "README.md"}
    assert on_disk == set(STANDS_IN_FOR)


@pytest.mark.parametrize("name", sorted(STANDS_IN_FOR))
def test_no_fixture_sentence_or_vector_is_copied_from_the_real_data(name):
    real = require_data(*STANDS_IN_FOR[name])
    fixture = LDNET / name
    shared = vector_lines(fixture) & vector_lines(real) if fixture.suffix == ".gz" else blocks(fixture) & blocks(real)
    assert not shared, f"{fixture} holds {len(shared)} pieces of {real}"
