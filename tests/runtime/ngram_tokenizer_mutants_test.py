"""The ASCII fast path lower-cases every capital, A to Z inclusive, as CountVectorizer does."""

import string

from sklearn.feature_extraction.text import CountVectorizer

from green_nlp.runtime.ngram_tokenizer import SEPARATOR, NgramTokenizer


def tokens(tokenizer, text):
    """The tokens the n-gram table keeps of one text: its runs without the one-character ones."""
    return [run for run in tokenizer.runs(text) if run not in tokenizer.short_runs]


def batch_tokens(tokenizer, texts):
    return [run for run in tokenizer.batch_runs(texts) if run not in tokenizer.short_runs]


def test_every_ascii_capital_is_lower_cased_on_the_fast_path():
    tokenizer = NgramTokenizer()
    text = "ZIZZ Zebra ABCXYZ a-Z " + " ".join(c + c for c in string.ascii_uppercase)
    expected = ["zizz", "zebra", "abcxyz"] + [c + c for c in string.ascii_lowercase]
    assert tokenizer.fast and text.isascii()
    assert tokens(tokenizer, text) == expected
    assert tokens(tokenizer, text) == CountVectorizer().build_tokenizer()(text.lower())
    assert batch_tokens(tokenizer, ["Zoo ZZ", "AZ"]) == ["zoo", "zz", SEPARATOR, "az"]


def test_without_lower_casing_capitals_stay():
    assert tokens(NgramTokenizer(lowercase=False), "Zoo AZ zz") == ["Zoo", "AZ", "zz"]


def test_runs_keep_one_character_runs_that_tokens_drop():
    tokenizer = NgramTokenizer()
    assert tokenizer.runs("A b-CC 9 dd") == ["a", "b", "cc", "9", "dd"]
    assert tokens(tokenizer, "A b-CC 9 dd") == ["cc", "dd"]
    assert set(tokenizer.short_runs) >= {"a", "z", "0", "9", "_"} and "A" not in tokenizer.short_runs
    assert "A" in NgramTokenizer(lowercase=False).short_runs


def test_a_batch_holding_the_separator_in_a_text_keeps_its_texts_apart():
    tokenizer = NgramTokenizer()
    texts = ["aa\x01bb", "cc", "dd é ee"]
    assert batch_tokens(tokenizer, texts) == ["aa", "bb", SEPARATOR, "cc", SEPARATOR, "dd", "ee"]
    assert batch_tokens(tokenizer, ["aa bb", "cc"]) == ["aa", "bb", SEPARATOR, "cc"]
