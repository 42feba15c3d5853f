"""CoNLL-U for parsed sentences, written by the `conllu` package (no torch): the same text the
`green_dependency_parser` predictor writes for the same record."""

from collections.abc import Sequence
from typing import Any, Optional

import conllu


def multiword_columns(words: Sequence[str], groups: Sequence[tuple[int, int]]) -> list[list[str]]:
    """The 10 CoNLL-U columns of each multiword token over words (first, last), 0-based: ID
    `first-last` (1-based), FORM the words written together, the rest `_`."""
    return [[f"{first + 1}-{last + 1}", "".join(words[first : last + 1])] + ["_"] * 8 for first, last in groups]


def with_multiword_tokens(block: str, multiword_tokens: Optional[list[list[str]]]) -> str:
    """A CoNLL-U block with each multiword-token line (its 10 columns, ID `first-last`) put back
    before the line of its first word, where the format has it."""
    if not multiword_tokens:
        return block
    before = {columns[0].split("-")[0]: "\t".join(columns) for columns in multiword_tokens}
    lines = []
    for line in block.split("\n"):
        token_id = line.split("\t", 1)[0] if "\t" in line and not line.startswith("#") else None
        if token_id in before:
            lines.append(before[token_id])
        lines.append(line)
    return "\n".join(lines)


def sentence_to_conllu(sentence: dict[str, Any]) -> str:
    """One sentence record (`words`, `heads`, `deprels`, optional `upos`, `lemmas`, `xpos`,
    `feats`, `misc`, `comments`, `multiword_tokens`) -> a CoNLL-U block ending in a blank line."""
    words = sentence["words"]
    n = len(words)

    def column(name: str) -> list[Optional[str]]:
        values = sentence.get(name)
        return list(values) if values else [None] * n

    upos, lemmas, xpos, feats, misc = (column(name) for name in ("upos", "lemmas", "xpos", "feats", "misc"))
    tokens = [
        {
            "id": i + 1,
            "form": words[i],
            "lemma": lemmas[i],
            "upos": upos[i],
            "xpos": xpos[i],
            "feats": feats[i],
            "head": sentence["heads"][i],
            "deprel": sentence["deprels"][i],
            "deps": None,
            "misc": misc[i],
        }
        for i in range(n)
    ]
    comments = dict(sentence.get("comments") or {})
    comments.setdefault("text", " ".join(words))
    block = conllu.models.TokenList(
        [conllu.models.Token(token) for token in tokens], metadata=conllu.models.Metadata(comments)
    ).serialize()
    return with_multiword_tokens(block, sentence.get("multiword_tokens"))
