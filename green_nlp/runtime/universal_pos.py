"""Which UPOS tags a parser trained with gold UPOS input may be given.

A tag the model never saw is read as its unknown tag, which is right for a Universal POS tag that
was rare in training (`X`, `SYM`) but silently wrong for a tag from another tagset: PTB `NN` or
`VBZ` given as UPOS parsed as if every word's tag were unknown. So a tag outside both the model's
tags and the 17 of Universal Dependencies v2 is refused, naming the tags the model knows.
"""

from collections.abc import Collection, Sequence
from typing import Optional

# https://universaldependencies.org/u/pos/ (UD v2)
UNIVERSAL_POS = frozenset(
    ("ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM")
    + ("PART", "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X")
)


def first_unknown_tag(tags: Sequence[str], known: Collection[str], reads_unknown: bool) -> Optional[int]:
    """The index of the first tag the model cannot take, or None. `reads_unknown`: the model's tag
    vocabulary has an unknown-tag entry, so an unseen Universal POS tag may go to it."""
    for index, tag in enumerate(tags):
        if tag not in known and not (reads_unknown and tag in UNIVERSAL_POS):
            return index
    return None


def unknown_tag_problem(tag: str, known: Collection[str]) -> str:
    """What to tell a user who gave `tag`, after the place it was given (`upos[3] is 'NN', ...`)."""
    names = ", ".join(sorted(name for name in known if name and not name.startswith("@@")))
    hint = (
        " and not a Universal POS tag (PTB tags such as NN or VBZ need mapping to UPOS first, "
        "e.g. with green_nlp.data.upos_from_xpos)"
        if tag not in UNIVERSAL_POS
        else ""
    )
    return f"is {tag!r}, not a tag this model knows ({names}){hint}"
