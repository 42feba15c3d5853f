import numpy as np

from green_nlp.runtime import parser_inputs
from green_nlp.runtime.parser_inputs import ParserInputs

INPUTS = {
    "words": {
        "input": "word_ids",
        "vocabulary": ["@@PADDING@@", "@@UNKNOWN@@", "the", "cat"],
        "oov_index": 1,
        "lowercase": True,
    },
    "characters": {
        "input": "char_ids",
        "vocabulary": ["@@PADDING@@", "@@UNKNOWN@@", "t", "h", "e", "c", "a"],
        "oov_index": 1,
        "lowercase": True,
        "min_padding_length": 3,
    },
}


def test_word_and_character_ids_are_padded_and_unknowns_get_the_oov_id():
    feed = ParserInputs(INPUTS).feed([["The", "cat"], ["dog"]], [None, None])
    assert feed["word_ids"].tolist() == [[2, 3], [1, 0]]
    assert feed["char_ids"].tolist() == [[[2, 3, 4], [5, 6, 2]], [[1, 1, 1], [0, 0, 0]]]


def test_memoized_character_ids_give_the_same_feed_and_the_memo_stays_bounded(monkeypatch):
    monkeypatch.setattr(parser_inputs, "WORD_CACHE_SIZE", 2)
    inputs = ParserInputs(INPUTS)
    sentences = [["The", "cat", "hat", "act"], ["The", "tea"]]
    first = inputs.feed(sentences, [None, None])["char_ids"]
    again = inputs.feed(sentences, [None, None])["char_ids"]
    fresh = ParserInputs(INPUTS).feed(sentences, [None, None])["char_ids"]
    assert np.array_equal(first, again) and np.array_equal(first, fresh)
    assert len(inputs._word_chars) <= 2


def test_the_distinct_word_layout_gives_each_place_the_row_of_its_word():
    per_place = ParserInputs(INPUTS)
    distinct = ParserInputs({**INPUTS, "characters": {**INPUTS["characters"], "index_input": "char_index"}})
    sentences = [["The", "cat", "the", "The"], ["tea", "cat"]]
    old = per_place.feed(sentences, [None, None])
    new = distinct.feed(sentences, [None, None])
    assert new["word_ids"].tolist() == old["word_ids"].tolist()
    # row 0 is the padding word; "The" and "the" are distinct words (rows 1 and 3)
    assert new["char_index"].tolist() == [[1, 2, 3, 1], [4, 2, 0, 0]]
    assert new["char_ids"].shape == (5, 3) and not new["char_ids"][0].any()
    assert np.array_equal(new["char_ids"][new["char_index"]], old["char_ids"])
