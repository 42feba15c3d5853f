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
