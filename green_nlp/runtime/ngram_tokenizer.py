"""scikit-learn CountVectorizer's word tokenization (the DAN reader's), exactly, without scikit-learn.

Why hand-written: the runtime must not need scikit-learn, and the analyzer's per-text regex is a
large share of the DAN's cost per text. With the default token pattern `(?u)\\b\\w\\w+\\b` a token is
a maximal run of 2+ word characters; for an ASCII text that is the same as mapping every ASCII
non-word character to a space and splitting, which `str.translate` + `str.split` do in C about
three times faster than the regex. Non-ASCII texts and any other token pattern go through the
regex itself, as CountVectorizer does (lower-casing first when asked).
"""

import re
from collections.abc import Iterable

DEFAULT_TOKEN_PATTERN = r"(?u)\b\w\w+\b"
# Placed between the texts of a batch: two characters no token can contain (every token is word
# characters only), so it survives the length filter and is recognisably not a word.
SEPARATOR = "\x00\x00"


def _ascii_table(lowercase: bool) -> dict[int, int]:
    """ASCII non-word characters -> space (and A-Z -> a-z when lower-casing). `\\w` on an ASCII
    character is exactly `isalnum()` or `_`, as in Python's `re` for str patterns."""
    table = {code: ord(" ") for code in range(128) if not (chr(code).isalnum() or code == ord("_"))}
    if lowercase:
        table.update({code: code + 32 for code in range(ord("A"), ord("Z") + 1)})
    return table


class NgramTokenizer:
    """The words the DAN's analyzer builds n-grams from (stop words, accent stripping and custom
    preprocessors are not supported: the reader's analyzer uses none)."""

    def __init__(self, token_pattern: str = DEFAULT_TOKEN_PATTERN, lowercase: bool = True) -> None:
        self.token_pattern = token_pattern
        self.lowercase = lowercase
        self._regex = re.compile(token_pattern)
        if self._regex.groups > 1:
            raise ValueError(f"token_pattern {token_pattern!r} has more than one capturing group")
        # the default pattern (the reader's): ASCII fast path, and batches joined by SEPARATOR, which
        # no token of that pattern can equal
        self.fast = token_pattern == DEFAULT_TOKEN_PATTERN
        self._table = _ascii_table(lowercase)

    def tokens(self, text: str) -> list[str]:
        """CountVectorizer's tokens of one text."""
        if self.fast and text.isascii():
            return [token for token in text.translate(self._table).split() if len(token) > 1]
        return self._regex.findall(text.lower() if self.lowercase else text)

    def _fast_piece(self, text: str) -> str:
        """One text as space-separated words; ASCII runs of one character are removed later."""
        if text.isascii():
            return text.translate(self._table)
        return " ".join(self._regex.findall(text.lower() if self.lowercase else text))

    def batch_tokens(self, texts: Iterable[str]) -> list[str]:
        """The tokens of all `texts` in order, with `SEPARATOR` between consecutive texts (default
        token pattern only: another pattern could yield SEPARATOR itself)."""
        if not self.fast:
            raise ValueError(f"batch_tokens needs the default token pattern, not {self.token_pattern!r}")
        split = f" {SEPARATOR} ".join([self._fast_piece(text) for text in texts]).split()
        # one-character runs are not tokens (\w\w+); a list comprehension is the cheapest filter here
        return [token for token in split if len(token) > 1]
