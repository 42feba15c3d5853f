"""spaCy's tokenizer without its quadratic cost on long stretches of punctuation.

spaCy peels prefixes and suffixes off a whitespace-free stretch one at a time, searching what is
left after each: a stretch that it splits into n pieces costs about n squared. In English, `=`, `+`,
`!`, `?`, `*`, `#`, `_`, brackets and quotes are split so: a line of thousands of `=` took seconds
to tokenize (a separator line in scraped text, or a request meant to stall a server), and every
such token then became a word of its own, far past the parser's sentence limit.

So a run of one such character of `LONG_RUN` or more, and a stretch of `LONG_STRETCH` or more
punctuation characters of mixed kinds, are cut out before spaCy sees the text: each run of one
character is one token (as UD treebanks write `!!!` or `=====`), and spaCy tokenizes the text
between them as usual. Shorter runs, which cost spaCy little, are left to it, so ordinary text is
tokenized exactly as before.
"""

import itertools
import re
from typing import Any

LONG_RUN = 64
LONG_STRETCH = 256
PUNCTUATION = r"(?:[^\w\s]|_)"  # neither a letter, digit nor whitespace (`_` is a word character to `re`)
LONG_PUNCTUATION = re.compile(rf"({PUNCTUATION})\1{{{LONG_RUN - 1},}}|{PUNCTUATION}{{{LONG_STRETCH},}}")


def tokenize(nlp: Any, text: str) -> Any:
    """`nlp.make_doc(text)`, with long punctuation cut out first (see the module docstring); the
    Doc spells `text` exactly either way."""
    if len(text) < LONG_RUN or not LONG_PUNCTUATION.search(text):
        return nlp.make_doc(text)
    from spacy.tokens import Doc

    words: list[str] = []
    spaces: list[bool] = []
    start = 0
    for match in LONG_PUNCTUATION.finditer(text):
        _add_tokens(nlp, text[start : match.start()], words, spaces)
        for _, run in itertools.groupby(match.group()):
            words.append("".join(run))
            spaces.append(False)
        start = match.end()
    _add_tokens(nlp, text[start:], words, spaces)
    return Doc(nlp.vocab, words=words, spaces=spaces)


def _add_tokens(nlp: Any, piece: str, words: list[str], spaces: list[bool]) -> None:
    """spaCy's tokens of a piece of the text; one space opening it belongs to the token before,
    as spaCy writes a token's trailing space."""
    if piece.startswith(" ") and words and not spaces[-1]:
        spaces[-1] = True
        piece = piece[1:]
    for token in nlp.make_doc(piece) if piece else ():
        words.append(token.text)
        spaces.append(bool(token.whitespace_))
