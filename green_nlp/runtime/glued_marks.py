"""A sentence's end glued to the next sentence's start (`movie!Just`, `anymore?This`) is cut at the marks.

spaCy's English infixes cut a period between a lower-case and an upper-case letter (`film.And`) and
a run of periods anywhere (`movie...Well`), but not `?` or `!`: IMDB's test reviews hold about 3 such
tokens in 100,000 words (`funny!!!!So`, `what?Don't`), and each was one word, with one tag and one
head for two sentences' words. UD English-EWT writes its one case (`and?December`, train) as three
words. So in a token of letters, apostrophes and `?`/`!` runs only, each run between a lower-case
and an upper-case letter is cut out (`wow!Great!Thanks`: five words; `café!Très` too); anything else
(`Yahoo!`, `index.php?Page=2`, `?!`, `ABC?Def`) stays whole.
"""

import re

MARKS = re.compile(r"[?!]+")
# letters (any script: `\w` less digits and `_`), apostrophes and the marks, nothing else
LETTERS_AND_MARKS = re.compile(r"(?:[^\W\d_]|['’?!])+")


def may_hold_glued_marks(text: str) -> bool:
    """A cheap test first, on the tokens' text."""
    return "?" in text or "!" in text


def glued_pieces(text: str) -> list[str]:
    """`text` cut at each glued run of marks (`[text]` where there is none)."""
    if not LETTERS_AND_MARKS.fullmatch(text):
        return [text]
    pieces, start = [], 0
    for run in MARKS.finditer(text):
        before, after = run.start(), run.end()
        if before > 0 and after < len(text) and text[before - 1].islower() and text[after].isupper():
            pieces += [text[start:before], run.group()]
            start = after
    return pieces + [text[start:]] if pieces else [text]


def cut_glued_marks(pairs: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """spaCy's (token text, followed by whitespace) pairs with each glued token cut; the pieces
    still spell the same text (only the last keeps the token's whitespace)."""
    cut: list[tuple[str, bool]] = []
    for text, spaced in pairs:
        pieces = glued_pieces(text) if "?" in text or "!" in text else [text]
        cut += [(piece, False) for piece in pieces[:-1]] + [(pieces[-1], spaced)]
    return cut
