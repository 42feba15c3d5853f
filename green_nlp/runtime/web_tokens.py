"""Hashtags, @-mentions and URLs stay one word, as UD English treebanks write them.

spaCy's English rules cut `#ThrowbackThursday` into `#` and the rest (EWT writes `#audiobooks` as one
word), and its suffix rules cut the end off some URLs and mentions: a unit after digits
(`http://bit.ly/au121g` ends `au121` + `g`), a final underscore (`@hannahhhh_`). The treebank's
learned rules (`treebank_tokenization`) cannot mend these, since EWT's text holds too few of them to
learn from. So, between tokens with no whitespace between them:

- a `#` that opens a chunk, followed by a token starting with a letter, is one word with it (`#1`
  stays `#` + `1`, as EWT writes it);
- a token that is a URL (`http://`, `https://`, `www.`) or an @-mention absorbs the word-character
  tokens that follow it (`g`, `_`, `M`), which are the rest of it.
"""

import re

URL_OR_MENTION = re.compile(r"(?:https?://|www\.|@)\S", re.IGNORECASE)
WORD_CHARACTERS = re.compile(r"\w+")
HASHTAG_START = re.compile(r"[^\W\d_]")  # a letter


def join_web_tokens(pairs: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """spaCy's (token text, followed by whitespace) pairs with hashtags, URLs and mentions whole
    again; the tokens still spell the same text."""
    joined: list[tuple[str, bool]] = []
    for text, spaced in pairs:
        if joined and not joined[-1][1] and _continues(joined, text):
            joined[-1] = (joined[-1][0] + text, spaced)
        else:
            joined.append((text, spaced))
    return joined


def _continues(joined: list[tuple[str, bool]], text: str) -> bool:
    """Whether `text` is the rest of the last joined token (which has no whitespace after it)."""
    before = joined[-1][0]
    if before == "#":
        opens_chunk = len(joined) == 1 or joined[-2][1] or joined[-2][0].isspace()
        return opens_chunk and bool(HASHTAG_START.match(text))
    return bool(URL_OR_MENTION.match(before)) and WORD_CHARACTERS.fullmatch(text) is not None


def may_hold_web_tokens(text: str) -> bool:
    """A cheap test first, on the tokens' text: whether it holds a `#`, an `@`, `://` or `www.` at all."""
    return "#" in text or "@" in text or "://" in text or "www." in text.lower()
