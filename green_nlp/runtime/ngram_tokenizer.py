"""scikit-learn CountVectorizer's word tokenization (the DAN reader's), exactly, without scikit-learn.

Why hand-written: the runtime must not need scikit-learn, and the analyzer's per-text regex is a
large share of the DAN's cost per text. With the default token pattern `(?u)\\b\\w\\w+\\b` a token is
a maximal run of 2+ word characters; for an ASCII text that is the same as mapping every ASCII
non-word character to a space and splitting. `bytes.translate` with a 256-byte table does that
mapping about four times faster than `str.translate` (whose dict table costs a lookup per distinct
character per call), and three times faster than the regex. Non-ASCII texts and any other token
pattern go through the regex itself, as CountVectorizer does (lower-casing first when asked).

The fast path's split leaves one-character runs in (`runs`, `batch_runs`): filtering them in a
Python loop cost a third of the tokenizing, while the n-gram table drops them for free while it
looks the words up (`NgramTable(skip_tokens=tokenizer.short_runs)`).
"""

import re
from collections.abc import Sequence

DEFAULT_TOKEN_PATTERN = r"(?u)\b\w\w+\b"
# Placed between the texts of a batch: a character that is not a word character, so no token
# holds it, and that the batch's byte table keeps while it maps every other non-word byte to a
# space. A batch holding it in a text takes the per-text path, where it becomes a space.
SEPARATOR = "\x01"


def _is_word_byte(code: int) -> bool:
    """`\\w` on an ASCII character is exactly `isalnum()` or `_`, as in Python's `re` for str patterns."""
    return chr(code).isalnum() or code == ord("_")


def _byte_table(lowercase: bool, keep: str = "") -> bytes:
    """ASCII non-word bytes -> space (but `keep`), A-Z -> a-z when lower-casing; bytes >= 128
    never occur (ASCII texts only)."""
    table = bytearray(range(256))
    for code in range(128):
        if not _is_word_byte(code) and chr(code) not in keep:
            table[code] = ord(" ")
        elif lowercase and ord("A") <= code <= ord("Z"):
            table[code] = code + 32
    return bytes(table)


class NgramTokenizer:
    """The words the DAN's analyzer builds n-grams from (stop words, accent stripping and custom
    preprocessors are not supported: the reader's analyzer uses none)."""

    def __init__(self, token_pattern: str = DEFAULT_TOKEN_PATTERN, lowercase: bool = True) -> None:
        self.token_pattern = token_pattern
        self.lowercase = lowercase
        try:
            self._regex = re.compile(token_pattern)
        except (re.error, TypeError) as error:
            raise ValueError(f"token_pattern {token_pattern!r} is not a regular expression: {error}") from None
        if self._regex.groups > 1:
            raise ValueError(f"token_pattern {token_pattern!r} has more than one capturing group")
        # the default pattern (the reader's): ASCII fast path, and batches joined by SEPARATOR, which
        # no token of that pattern can equal
        self.fast = token_pattern == DEFAULT_TOKEN_PATTERN
        self._text_bytes = _byte_table(lowercase)
        self._batch_bytes = _byte_table(lowercase, keep=SEPARATOR)
        # what the fast path's split can leave that is not a token: one word character
        word_bytes = [chr(code) for code in range(128) if _is_word_byte(code)]
        self.short_runs: tuple[str, ...] = (
            tuple(sorted({c.lower() if lowercase else c for c in word_bytes})) if self.fast else ()
        )

    def runs(self, text: str) -> list[str]:
        """CountVectorizer's tokens of one text, with `short_runs` left in on the fast path."""
        if self.fast and text.isascii():
            return text.encode("ascii").translate(self._text_bytes).decode("ascii").split()
        return self._regex.findall(text.lower() if self.lowercase else text)

    def _fast_piece(self, text: str) -> str:
        """One text as space-separated runs (no SEPARATOR in it)."""
        if text.isascii():
            return text.encode("ascii").translate(self._text_bytes).decode("ascii")
        return " ".join(self._regex.findall(text.lower() if self.lowercase else text))

    def batch_runs(self, texts: Sequence[str]) -> list[str]:
        """`runs` of all `texts` in order, with `SEPARATOR` between consecutive texts (default
        token pattern only: another pattern could yield SEPARATOR itself)."""
        if not self.fast:
            raise ValueError(f"batch_runs needs the default token pattern, not {self.token_pattern!r}")
        joined = f" {SEPARATOR} ".join(texts)
        if joined.isascii() and joined.count(SEPARATOR) == len(texts) - 1:  # one C pass for the batch
            return joined.encode("ascii").translate(self._batch_bytes).decode("ascii").split()
        return f" {SEPARATOR} ".join([self._fast_piece(text) for text in texts]).split()
