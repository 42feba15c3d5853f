"""The ASCII fast path lower-cases every capital, A to Z inclusive, as CountVectorizer does."""

import string

from sklearn.feature_extraction.text import CountVectorizer

from green_nlp.runtime.ngram_tokenizer import SEPARATOR, NgramTokenizer


def test_every_ascii_capital_is_lower_cased_on_the_fast_path():
    tokenizer = NgramTokenizer()
    text = "ZIZZ Zebra ABCXYZ a-Z " + " ".join(c + c for c in string.ascii_uppercase)
    expected = ["zizz", "zebra", "abcxyz"] + [c + c for c in string.ascii_lowercase]
    assert tokenizer.fast and text.isascii()
    assert tokenizer.tokens(text) == expected
    assert tokenizer.tokens(text) == CountVectorizer().build_tokenizer()(text.lower())
    assert tokenizer.batch_tokens(["Zoo ZZ", "AZ"]) == ["zoo", "zz", SEPARATOR, "az"]


def test_without_lower_casing_capitals_stay():
    assert NgramTokenizer(lowercase=False).tokens("Zoo AZ zz") == ["Zoo", "AZ", "zz"]


def test_runs_keep_one_character_runs_that_tokens_drop():
    tokenizer = NgramTokenizer()
    assert tokenizer.runs("A b-CC 9 dd") == ["a", "b", "cc", "9", "dd"]
    assert tokenizer.tokens("A b-CC 9 dd") == ["cc", "dd"]
    assert set(tokenizer.short_runs) >= {"a", "z", "0", "9", "_"} and "A" not in tokenizer.short_runs
    assert "A" in NgramTokenizer(lowercase=False).short_runs


def test_a_batch_holding_the_separator_in_a_text_keeps_its_texts_apart():
    tokenizer = NgramTokenizer()
    texts = ["aa\x01bb", "cc", "dd é ee"]
    assert tokenizer.batch_tokens(texts) == ["aa", "bb", SEPARATOR, "cc", SEPARATOR, "dd", "ee"]
    assert tokenizer.batch_tokens(["aa bb", "cc"]) == ["aa", "bb", SEPARATOR, "cc"]
