"""`NgramIndex`: the numbered n-gram list a folder's `ngrams.index.npz` holds, and the table built from it."""

import numpy as np
import pytest

from green_nlp.runtime.ngram_index import INDEX_VERSION, NgramIndex
from green_nlp.runtime.ngram_table import NgramTable
from tests.runtime.ngram_table_test import random_case


def test_the_index_round_trips_and_builds_the_same_table(tmp_path):
    vocabulary, texts = random_case(3, words=60, count=800)
    index = NgramIndex.from_ngrams(vocabulary)
    path = tmp_path / "ngrams.index.npz"
    index.write(path, "ab" * 32)
    read = NgramIndex.read(path, len(vocabulary))
    assert read.source_sha256 == "ab" * 32
    assert read.words == index.words and (read.digits == index.digits).all() and (read.lengths == index.lengths).all()
    assert [read.ngram(i) for i in range(len(vocabulary))] == read.ngrams() == vocabulary
    assert NgramIndex.from_ngrams([]).ngrams() == []
    from_list, from_index = NgramTable(vocabulary, boundary_token="\x01"), NgramTable(read, boundary_token="\x01")
    for text in texts:
        assert from_index.text_ids(text, 1, 4) == from_list.text_ids(text, 1, 4)
    digits = from_list.word_digits([t for text in texts for t in [*text, "\x01"]])
    positions = np.cumsum(digits == from_list.boundary)
    for got, expected in zip(from_index.lookup(digits, positions, 1, 4), from_list.lookup(digits, positions, 1, 4)):
        assert (got == expected).all()
    with np.load(path) as arrays:  # 60 words: one byte a digit
        assert arrays["digits"].dtype == np.uint8 and arrays["lengths"].dtype == np.uint8


def _write(path, **arrays):
    base = {"version": np.array(INDEX_VERSION), "words": np.frombuffer(b"aa\nbb", dtype=np.uint8)}
    base["source_sha256"] = np.frombuffer(b"0" * 64, dtype=np.uint8)
    base.update({"digits": np.array([1, 1, 2], dtype=np.uint8), "lengths": np.array([1, 2], dtype=np.uint8)})
    base.update(arrays)
    with open(path, "wb") as handle:
        np.savez(handle, **{key: value for key, value in base.items() if value is not None})


@pytest.mark.parametrize(
    "change, count, message",
    [
        ({}, 3, "holds 2 n-grams, the metadata says 3"),
        ({"version": np.array(2)}, 2, "is index version 2; this runtime reads version 1"),
        ({"digits": None}, 2, "has no digits array"),
        ({"digits": np.array([1, 1, 3])}, 2, "numbers a word it does not list"),
        ({"lengths": np.array([1, 1])}, 2, "lengths that do not add up"),
        ({"words": np.frombuffer(b"aa\naa", dtype=np.uint8)}, 2, "lists a word twice"),
    ],
)
def test_a_broken_index_is_refused_with_what_is_wrong(tmp_path, change, count, message):
    path = tmp_path / "ngrams.index.npz"
    _write(path, **change)
    with pytest.raises(ValueError, match=message):
        NgramIndex.read(path, count)
    _write(path)
    assert [NgramIndex.read(path, 2).ngram(i) for i in range(2)] == ["aa", "aa bb"]


def test_an_empty_list_round_trips(tmp_path):
    NgramIndex.from_ngrams([]).write(tmp_path / "x.npz", "")
    empty = NgramIndex.read(tmp_path / "x.npz", 0)
    assert empty.words == [] and len(empty) == 0


@pytest.mark.parametrize("listed", [None, ["aa"]])  # no list, or one of another length: the index's own
def test_one_text_lookups_fall_back_to_the_index_s_ngrams(listed, monkeypatch):
    monkeypatch.setattr("green_nlp.runtime.ngram_table.DICT_AFTER_TEXTS", 0)
    vocabulary, texts = random_case(5, words=30, count=200)
    from_list = NgramTable(vocabulary)
    from_index = NgramTable(NgramIndex.from_ngrams(vocabulary), ngram_list=lambda: listed)
    assert all(from_index.text_ids(text, 1, 4) == from_list.text_ids(text, 1, 4) for text in texts)


def test_a_cut_or_pickled_index_is_refused_as_unreadable_without_advice_to_unpickle(tmp_path):
    path = tmp_path / "ngrams.index.npz"
    _write(path)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ValueError, match="^is not a readable index of numpy arrays"):
        NgramIndex.read(path, 2)
    with open(path, "wb") as handle:  # a pickled object array (np.save would add .npy to the name)
        np.save(handle, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="^holds pickled data") as refused:
        NgramIndex.read(path, 2)
    assert "allow_pickle" not in str(refused.value)
