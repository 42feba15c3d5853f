"""A parser folder whose lemma head is a graph of its own (`export.lemma_head_split`) answers exactly
as the folder it came from, at both precisions; the head runs only on the words the dictionary lacks."""

import json
import shutil

import numpy as np
import onnxruntime
import pytest

from green_nlp.dataset_readers.conllu_sentences import read_conllu
from green_nlp.export import export_archive
from green_nlp.export.lemma_head_split import HEAD_FILES, STATES, split_lemma_head
from green_nlp.export.lemma_lexicon import add_to_archive
from green_nlp.runtime import load
from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.folder_schema import bad_value
from green_nlp.runtime.lemma_lexicon import LemmaLexicon
from green_nlp.runtime.model_folder import META_FILE, folder_state
from tests.conftest import FIXTURES
from tests.export.lemma_lexicon_test import LINES as PLANTED_LINES
from tests.export.lemma_lexicon_test import PLANTED, UPOS, _planted
from tests.export.parser_ud_heads_test import DATA, archive  # noqa: F401 (module fixture)

# raw text, the fixture's own sentences and two with the planted words
LINES = (
    (FIXTURES / "raw_text.txt").read_text(encoding="utf-8").splitlines()
    + [" ".join(sentence.words) for sentence in list(read_conllu(DATA))[:10]]
    + PLANTED_LINES
)


def _two_words() -> LemmaLexicon:
    """A dictionary of the two planted words alone: every other word's lemma is the head's script."""
    return LemmaLexicon.from_words([(form, tag, f"DICT-{form}") for form in PLANTED for tag in UPOS])


@pytest.fixture(scope="module")
def whole(archive, tmp_path_factory):  # noqa: F811
    """The UD-heads fixture parser with a two-word lemma dictionary, exported without any split."""
    lexicon_archive = tmp_path_factory.mktemp("head_split") / "model.tar.gz"
    add_to_archive(archive, _two_words(), lexicon_archive)
    return export_archive(lexicon_archive, lexicon_archive.parent / "whole", split_graphs=False)


@pytest.fixture(scope="module")
def split(whole):
    folder = shutil.copytree(whole, whole.parent / "split")
    assert split_lemma_head(folder) is True
    return folder


def _outputs(folder, precision):
    nlp = load(folder, precision=precision, threads=1)
    docs = list(nlp.parse_many(LINES, batch_size=3, sort_window=6))
    return [doc.to_conllu() for doc in docs], [doc.to_json() for doc in docs], nlp


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_the_split_folder_parses_exactly_as_the_whole_one(whole, split, precision):
    before_conllu, before_json, _ = _outputs(whole, precision)
    after_conllu, after_json, nlp = _outputs(split, precision)
    assert after_conllu == before_conllu and after_json == before_json
    assert nlp._lemma_head is not None
    # both ways were taken: dictionary lemmas, and words whose lemma came from the head's scripts,
    # which differ between words (so a script given to the wrong word shows)
    lemmas = [lemma for record in after_json for sentence in record["sentences"] for lemma in sentence["lemmas"]]
    assert "DICT-sees" in lemmas and nlp._dictionary_cache[("sees", "VERB")] == "DICT-sees"
    words = [word for record in after_json for sentence in record["sentences"] for word in sentence["words"]]
    assert sum(lemma == word for word, lemma in zip(words, lemmas)) > 10
    assert sum(lemma not in (word, "DICT-sees", "DICT-green") for word, lemma in zip(words, lemmas)) > 10


def test_the_folder_names_the_head_and_the_main_graph_gives_its_states(split):
    meta = json.loads((split / META_FILE).read_text(encoding="utf-8"))
    assert meta["lemma_head"] == {"files": HEAD_FILES, "states": STATES}
    assert all(name in meta["sha256"] for name in HEAD_FILES.values())
    assert folder_state(split) == "ok"
    outputs = {o.name for o in onnxruntime.InferenceSession(str(split / "model.int8.onnx")).get_outputs()}
    assert STATES in outputs and meta["outputs"]["lemma_rules"] not in outputs


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_a_words_scripts_do_not_depend_on_which_other_words_the_head_reads(split, precision):
    nlp = load(split, precision=precision, threads=1)
    head = nlp._lemma_head
    words = [line.split() for line in LINES[:6]]
    feed = nlp.inputs.feed(words, [None] * len(words))
    if nlp.character_vectors is not None:
        distinct = nlp.inputs.distinct_words(words, max(map(len, words)))[0]
        feed[nlp.inputs.vectors_input] = nlp.character_vectors(distinct)
    states = nlp.session.run([STATES], feed)[0]
    every = head.run(nlp._head_outputs, {STATES: states})
    rng = np.random.default_rng(0)
    for size in (1, 2, 5, states.shape[0] * states.shape[1]):
        rows = rng.integers(0, states.shape[0], size)
        columns = rng.integers(0, states.shape[1], size)
        some = head.run(nlp._head_outputs, {STATES: states[rows, columns][None]})
        for full, part in zip(every, some):
            assert np.array_equal(full[rows, columns], part[0])


def test_a_folder_without_a_dictionary_or_split_already_is_left_as_it_is(archive, split, tmp_path):  # noqa: F811
    plain = export_archive(archive, tmp_path / "plain", split_graphs=False)
    assert split_lemma_head(plain) is False and "lemma_head" not in json.loads((plain / META_FILE).read_text())
    assert split_lemma_head(split) is False


def test_a_missing_or_mismatched_head_graph_is_refused(split, tmp_path):
    broken = shutil.copytree(split, tmp_path / "broken")
    (broken / HEAD_FILES["int8"]).unlink()
    with pytest.raises(ModelFolderError, match="lemma_head.int8.onnx"):
        load(broken, precision="int8")
    assert folder_state(broken).startswith("broken:")
    renamed = shutil.copytree(split, tmp_path / "renamed")
    meta = json.loads((renamed / META_FILE).read_text(encoding="utf-8"))
    meta["lemma_head"]["states"] = "no_such_output"
    (renamed / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ModelFolderError, match="lemma_head.states"):
        load(renamed, precision="int8")
    assert 'key "lemma_head" must be an object' in bad_value({**meta, "lemma_head": {"files": {}}})


def test_the_export_splits_a_parser_with_a_dictionary(archive, tmp_path):  # noqa: F811
    lexicon_archive = tmp_path / "model.tar.gz"
    add_to_archive(archive, _planted(), lexicon_archive)
    folder = export_archive(lexicon_archive, tmp_path / "exported")
    assert json.loads((folder / META_FILE).read_text(encoding="utf-8"))["lemma_head"]["states"] == STATES
