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
