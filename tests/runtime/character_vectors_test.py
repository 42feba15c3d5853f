"""The shipped parser's character vectors, kept across batches (`runtime.character_vectors`): each
word's vector depends on the word alone, the encoder runs only on words not met before, the cache
stays bounded, and the parse is the same with it cold, warm or started again."""

import json
import shutil

import numpy as np
import pytest

from green_nlp.runtime import character_vectors as character_vectors_module
from green_nlp.runtime import load
from green_nlp.runtime.character_vectors import WIDTH_RATIO, CharacterVectors, length_runs
from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.model_folder import META_FILE, folder_state, record_file_hashes
from tests.conftest import FIXTURES, REPO_ROOT

SHIPPED = REPO_ROOT / "pretrained" / "en-ewt-parser"
LINES = (FIXTURES / "raw_text.txt").read_text(encoding="utf-8").splitlines()


class CountingSession:
    """The real encoder session, counting the words each call encodes (row 0 included)."""

    def __init__(self, session):
        self.session, self.rows = session, []

    def run(self, names, feed):
        self.rows.append(len(next(iter(feed.values()))))
        return self.session.run(names, feed)


@pytest.fixture(scope="module")
def nlp():
    return load(SHIPPED)


def _fresh(nlp, capacity=None):
    vectors = nlp.character_vectors
    counting = CountingSession(vectors.session)
    fresh = CharacterVectors(counting, vectors.input_name, vectors.output_name, nlp.inputs)
    if capacity is not None:
        fresh.capacity = capacity  # below the constructor's floor, to reach the reset with few words
    return fresh, counting


def test_the_shipped_parser_is_split(nlp):
    assert nlp.character_vectors is not None and nlp.inputs.vectors_input == "char_vectors"


def test_a_words_vector_does_not_depend_on_its_batch(nlp):
    """Three-letter words at exactly the widest convolution's width gave vectors 3e-7 off; the
    encoder pads one character further, so alone or beside a long word they are the same."""
    vectors, _ = _fresh(nlp)
    alone = [vectors(["", word])[1].copy() for word in ("the", "cat", "dog", "a")]
    vectors.clear()
    beside = vectors(["", "the", "cat", "dog", "a", "extraordinarily-long-word"])
    for i, vector in enumerate(alone, start=1):
        assert np.array_equal(vector, beside[i])


def test_new_words_are_encoded_in_runs_of_similar_length_with_the_same_vectors(nlp):
    """Words of very different lengths go through the encoder in several calls, none padding a word
    past `WIDTH_RATIO` times the run's shortest, and each vector is the word's own."""
    words = ["", "a", "extraordinarily-long-word", "cat", "x" * 60, "sat", "mat", "encyclopaedia"]
    vectors, counting = _fresh(nlp)
    together = vectors(words).copy()
    assert counting.rows == [5, 2, 1]  # ("", a, cat, sat, mat), (encyclopaedia, extraordinarily-long-word), x * 60
    for i, word in enumerate(words):
        vectors.clear()
        assert np.array_equal(vectors([word])[0], together[i])


def test_length_runs_bound_each_runs_width():
    lengths = [0, 1, 3, 4, 5, 8, 9, 17, 40, 41, 500]
    runs = length_runs(lengths, min_width=4)
    assert [i for run in runs for i in run] == list(range(len(lengths)))
    for run in runs:
        assert lengths[run[-1]] <= WIDTH_RATIO * max(4, lengths[run[0]])
    assert [len(run) for run in runs] == [6, 2, 2, 1]
    assert length_runs([], 4) == []


def test_length_runs_bound_each_calls_cells(monkeypatch):
    """A window's many words of one length go through the encoder in calls of at most
    `CHARACTER_CELLS_PER_CALL` cells (words times width), not in one call of any size."""
    monkeypatch.setattr(character_vectors_module, "CHARACTER_CELLS_PER_CALL", 100)
    runs = length_runs([10] * 25 + [12] * 5 + [500], min_width=4)
    assert [len(run) for run in runs] == [10, 10, 8, 2, 1]  # 10 x 10, 10 x 10, 8 x 12, 2 x 12; 500 alone
    assert [len(run) for run in length_runs([3] * 30, min_width=20)] == [5] * 6  # padded to the least width


def test_a_windows_words_are_encoded_ahead_in_few_calls_and_the_batches_then_find_them(nlp):
    words = ["", "the", "cat", "sat", "on", "mat", "extraordinarily-long-word"]
    vectors, counting = _fresh(nlp)
    vectors.encode_ahead(words + ["the", "cat"])  # repeats encoded once
    assert counting.rows == [6, 1] and len(vectors) == 7
    ahead = vectors(["", "cat", "the"]).copy()
    assert counting.rows == [6, 1]  # kept: no call for the batch
    vectors.clear()
    assert np.array_equal(vectors(["", "cat", "the"]), ahead)


def test_encoding_ahead_leaves_the_batches_to_themselves_when_it_would_fill_half_the_cache(nlp):
    vectors, counting = _fresh(nlp, capacity=8)
    vectors.encode_ahead(["", "a", "b", "c", "d", "e"])  # 6 words, over half of 8
    assert counting.rows == [] and len(vectors) == 0
    vectors.encode_ahead(["", "a", "b"])
    assert counting.rows == [3]


def test_a_parse_encodes_its_windows_words_ahead_in_fewer_calls_with_the_same_trees(nlp):
    """Batch by batch the encoder ran once or more per batch; encoding a window's new words ahead,
    the parse makes fewer calls and gives the same CoNLL-U (the vectors are each word's own)."""
    shipped = nlp.character_vectors
    counting = CountingSession(shipped.session)
    shipped.clear()
    try:
        shipped.session = counting
        ahead = [doc.to_conllu() for doc in nlp.parse_many(LINES, batch_size=2, sort_window=64)]
        calls_ahead = len(counting.rows)
        shipped.clear()
        counting.rows.clear()
        shipped.encode_ahead = lambda words: None  # batch by batch, as before
        alone = [doc.to_conllu() for doc in nlp.parse_many(LINES, batch_size=2, sort_window=64)]
    finally:
        shipped.session = counting.session
        del shipped.encode_ahead
    assert ahead == alone
    assert calls_ahead < len(counting.rows)


def test_the_encoder_runs_only_on_words_not_met_before(nlp):
    vectors, counting = _fresh(nlp)
    first = vectors(["", "the", "cat"]).copy()
    again = vectors(["", "dog", "the", "cat"])
    assert counting.rows == [3, 1]  # "dog" alone the second time
    assert np.array_equal(again[[0, 2, 3]], first)
    assert len(vectors) == 4


def test_the_cache_starts_again_when_full_and_the_vectors_stay_the_same(nlp):
    vectors, counting = _fresh(nlp, capacity=5)
    before = vectors(["", "a", "b", "c"]).copy()
    vectors(["", "d", "e", "f"])  # over the capacity: the cache starts again with these words
    assert len(vectors) == 4 and counting.rows[-1] == 4
    assert np.array_equal(vectors(["", "a", "b", "c"]), before)


def test_parses_are_the_same_with_the_cache_cold_warm_and_cleared(nlp):
    nlp.character_vectors.clear()
    cold = [doc.to_conllu() for doc in nlp.parse_many(LINES, batch_size=1, sort_window=1)]
    warm = [doc.to_conllu() for doc in nlp.parse_many(LINES, batch_size=32, sort_window=64)]
    nlp.character_vectors.clear()
    again = [doc.to_conllu() for doc in nlp.parse_many(reversed(LINES), batch_size=3, sort_window=3)]
    assert cold == warm == list(reversed(again))


# ------------------------------------------------------------------ the folder's encoder file
@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "parser"
    shutil.copytree(SHIPPED, copy)
    return copy


def _edit(folder, change):
    meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    change(meta["inputs"]["characters"])
    (folder / META_FILE).write_text(json.dumps(meta), encoding="utf-8")


def test_a_missing_encoder_file_is_refused_by_name_and_the_folder_listed_as_broken(folder):
    assert folder_state(folder) == "ok"
    (folder / "chars.int8.onnx").unlink()
    with pytest.raises(ModelFolderError, match=r"has no chars.int8.onnx \(inputs.characters.encoder.files.int8\)"):
        load(folder)
    assert folder_state(folder).startswith("broken: ") and "chars.int8.onnx" in folder_state(folder)


def test_a_changed_encoder_file_is_refused(folder):
    with open(folder / "chars.int8.onnx", "ab") as handle:
        handle.write(b"\0")
    with pytest.raises(ModelFolderError, match="chars.int8.onnx does not match the sha256"):
        load(folder)


def test_an_encoder_named_outside_the_folder_is_refused(folder):
    _edit(folder, lambda chars: chars["encoder"]["files"].update(int8="../elsewhere.onnx"))
    with pytest.raises(ModelFolderError, match="resolves outside the folder"):
        load(folder)


def test_an_encoder_without_its_vectors_input_is_refused(folder):
    _edit(folder, lambda chars: chars.pop("vectors_input"))
    with pytest.raises(ModelFolderError, match='"inputs.characters.vectors_input" must be a string'):
        load(folder)


def test_an_encoder_graph_with_other_names_is_refused(folder):
    _edit(folder, lambda chars: chars["encoder"].update(output="not_there"))
    record_file_hashes(folder)
    with pytest.raises(ModelFolderError, match="not what green_model.json key inputs.characters names"):
        load(folder)
