"""A lemma dictionary added to a parser archive reaches the predictor, the exported folder and the
runtime, which agree; an archive or folder without one is unchanged."""

import json

import pytest
from allennlp.predictors import Predictor

from green_nlp.dataset_readers.conllu_sentences import read_conllu
from green_nlp.export import export_archive
from green_nlp.export.lemma_lexicon import add_to_archive, add_to_folder
from green_nlp.runtime import load
from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.lemma_lexicon import FILE, LemmaLexicon
from tests.conftest import FIXTURES
from tests.export.parser_ud_heads_test import DATA, archive, folder  # noqa: F401 (module fixtures)

UPOS = ["ADJ", "ADP", "ADV", "DET", "NOUN", "NUM", "PRON", "PROPN", "PUNCT", "VERB", "X"]
PLANTED = ("sees", "green")
LINES = ["the small cat sees a green dog .", "a happy river sees this happy model ."]


def _planted() -> LemmaLexicon:
    """The fixture's own words, plus 'sees' and 'green' -> marked lemmas under every UPOS, so the
    dictionary visibly wins over whatever script the head picks."""
    words = [(w, u, w) for s in read_conllu(DATA) for w, u in zip(s.words, s.upos) if w not in PLANTED]
    words += [(form, tag, f"DICT-{form}") for form in PLANTED for tag in UPOS]
    return LemmaLexicon.from_words(words)


@pytest.fixture(scope="module")
def lexicon_archive(archive, tmp_path_factory):  # noqa: F811
    path = tmp_path_factory.mktemp("lexicon") / "model.tar.gz"
    add_to_archive(archive, _planted(), path)
    return path


def _lemmas(records):
    return [lemma for record in records for sentence in record["sentences"] for lemma in sentence["lemmas"]]


def test_the_predictor_consults_the_archive_dictionary(archive, lexicon_archive):  # noqa: F811
    plain = Predictor.from_path(str(archive), "green_dependency_parser")
    with_dictionary = Predictor.from_path(str(lexicon_archive), "green_dependency_parser")
    before = _lemmas([plain.predict_json({"sentence": line}) for line in LINES])
    after = _lemmas([with_dictionary.predict_json({"sentence": line}) for line in LINES])
    assert "DICT-sees" not in before and after.count("DICT-sees") == 2 and after.count("DICT-green") == 1
    changed = [(b, a) for b, a in zip(before, after) if b != a]
    assert all(a.startswith("DICT-") for _, a in changed)


def test_export_carries_it_and_the_runtime_equals_the_predictor(lexicon_archive, tmp_path):
    exported = export_archive(lexicon_archive, tmp_path / "exported")
    meta = json.loads((exported / "green_model.json").read_text(encoding="utf-8"))
    assert meta["lemma_lexicon"]["file"] == FILE and FILE in meta["sha256"]
    predictor = Predictor.from_path(str(lexicon_archive), "green_dependency_parser")
    nlp = load(exported, precision="fp32", threads=1)
    expected = [predictor.predict_json({"sentence": line}) for line in LINES]
    assert [doc.to_json() for doc in nlp.parse_many(LINES)] == expected
    assert "DICT-sees" in _lemmas(expected)
    (exported / FILE).write_text('{"entries": []}\n', encoding="utf-8")  # changed after export
    with pytest.raises(ModelFolderError):
        load(exported, precision="fp32")


def test_a_folder_without_it_is_unchanged_and_can_get_one(folder, tmp_path):  # noqa: F811
    nlp = load(folder, precision="fp32", threads=1)
    assert nlp.lemma_lexicon is None and "DICT-sees" not in _lemmas([nlp.parse(LINES[0]).to_json()])
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in folder.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    add_to_folder(copy, _planted())
    assert "DICT-sees" in _lemmas([load(copy, precision="fp32", threads=1).parse(LINES[0]).to_json()])


def test_a_rebuilt_dictionary_keeps_the_metadatas_indentation(folder, tmp_path):  # noqa: F811
    """The shipped folders' green_model.json is indented by 2 and the exporter's by 1: a rebuild rewrote
    every line of a shipped card's metadata, where only the entry count and a hash had changed."""
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in folder.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    meta = json.loads((copy / META_FILE).read_text(encoding="utf-8"))
    (copy / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    before = (copy / META_FILE).read_text(encoding="utf-8").splitlines()
    add_to_folder(copy, _planted())
    after = (copy / META_FILE).read_text(encoding="utf-8").splitlines()
    assert after[1].startswith('  "') and not after[1].startswith("   ")
    assert len(set(after) - set(before)) <= 6  # the dictionary's entry and the hashes it changed


def test_an_archive_without_the_lemma_head_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no LEMMA head"):
        add_to_archive(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz", _planted(), tmp_path / "out.tar.gz")
    assert not (tmp_path / "out.tar.gz").exists()
