"""Characters that are not whitespace to Python or spaCy but show nothing: zero-width spaces, the
byte-order mark inside a text, direction marks, a soft hyphen, control characters (C0 and C1: a
Windows-1252 dash read as Latin-1 is U+0096).

spaCy keeps them inside its tokens, so `A\u200b \u200bB.` gave the words `A\u200b` and `\u200bB.`, a
line holding only a zero-width space parsed as a one-word sentence, and each U+0096 in IMDB's
reviews became a word. A word is never made of them: at a token's ends they are moved into the gap
between words (CoNLL-U keeps them in `SpacesAfter`, as it keeps a tab), and a token of nothing else
is no word. Inside a word (`co\u00adoperate`) they stay.
"""

import unicodedata

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf"})  # control and format characters


def is_invisible(char: str) -> bool:
    # Python counts every Cc and Cf character unprintable: a letter is settled without the category lookup
    return not char.isprintable() and unicodedata.category(char) in INVISIBLE_CATEGORIES


def is_gap(char: str) -> bool:
    """Whether `char` may stand between two words: whitespace, or a character that shows nothing."""
    return char.isspace() or is_invisible(char)


def may_hold_invisible(text: str) -> bool:
    """A cheap test first, on the tokens' text: ASCII text holds none but the C0 controls (a tab
    among them, which spaCy makes a whitespace token)."""
    return not text.isascii() or not text.isprintable()


def strip_invisible(pairs: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """spaCy's (token text, followed by whitespace) pairs with invisible characters stripped from
    each token's ends; a token of nothing else becomes a whitespace token (`" "`), which ends a
    chunk as spaCy's own whitespace tokens do."""
    stripped: list[tuple[str, bool]] = []
    for text, spaced in pairs:
        if text and (is_invisible(text[0]) or is_invisible(text[-1])):
            start, end = 0, len(text)
            while start < end and is_invisible(text[start]):
                start += 1
            while end > start and is_invisible(text[end - 1]):
                end -= 1
            text = text[start:end] if start < end else " "
        stripped.append((text, spaced))
    return stripped
