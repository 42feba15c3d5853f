"""A sentence's end glued to the next sentence's start (`movie!Just`, `anymore?This`) is cut at the marks.

spaCy's English infixes cut a period between a lower-case and an upper-case letter (`film.And`) and
a run of periods anywhere (`movie...Well`), but not `?` or `!`: IMDB's test reviews hold about 3 such
tokens in 100,000 words (`funny!!!!So`, `what?Don't`), and each was one word, with one tag and one
head for two sentences' words. UD English-EWT writes its one case (`and?December`, train) as three
words. So a token of letters ending in a lower-case letter, a run of `?` and `!`, then letters starting
with a capital, is cut into those three; anything else (`Yahoo!`, `index.php?Page=2`, `?!`) stays.
"""

import re

GLUED = re.compile(r"([A-Za-z']*[a-z])([?!]+)([A-Z][A-Za-z']*)")


def may_hold_glued_marks(text: str) -> bool:
    """A cheap test first, on the tokens' text."""
    return "?" in text or "!" in text


def cut_glued_marks(pairs: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """spaCy's (token text, followed by whitespace) pairs with each glued token cut in three; the
    pieces still spell the same text (only the last keeps the token's whitespace)."""
    cut: list[tuple[str, bool]] = []
    for text, spaced in pairs:
        glued = GLUED.fullmatch(text) if "?" in text or "!" in text else None
        if glued is None:
            cut.append((text, spaced))
        else:
            cut += [(glued[1], False), (glued[2], False), (glued[3], spaced)]
    return cut
