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


def test_a_words_characters_are_read_up_to_the_cap():
    long = "c" * (parser_inputs.MAX_WORD_CHARACTERS + 100)
    feed = ParserInputs(INPUTS).feed([["The", long]], [None])
    assert feed["char_ids"].shape == (1, 2, parser_inputs.MAX_WORD_CHARACTERS)
    assert (feed["char_ids"][0, 1] == 5).all()


def test_an_ordinary_batch_is_one_model_call():
    batch = [["word"] * n for n in range(1, 33)]
    assert parser_inputs.model_calls(batch) == [range(0, 32)]


def test_a_batch_over_the_budgets_is_cut_and_each_call_stays_within_them():
    huge = "x" * 50_000
    batch = [["a", "b", huge, *(f"w{i}" for i in range(40))] for _ in range(32)]
    runs = parser_inputs.model_calls(batch)
    assert [i for run in runs for i in run] == list(range(32)) and len(runs) > 1
    for run in runs:
        words = sum(len(batch[i]) for i in run)
        assert words * parser_inputs.MAX_WORD_CHARACTERS <= parser_inputs.CHARACTER_CELLS_PER_CALL
    many = [["w"] * 1000 for _ in range(64)]  # 64 sentences of 1,000 words: the arc scores' budget
    assert [len(run) for run in parser_inputs.model_calls(many)] == [32, 32]
    alone = [["y" * 600] * 1000]  # over the budget on its own: still parsed, in a call of its own
    assert parser_inputs.model_calls(alone) == [range(0, 1)]
