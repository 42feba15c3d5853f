"""CoNLL-U for parsed sentences, written by the `conllu` package (no torch): the same text the
`green_dependency_parser` predictor writes for the same record."""

from typing import Any, Optional

import conllu


def sentence_to_conllu(sentence: dict[str, Any]) -> str:
    """One sentence record (`words`, `heads`, `deprels`, optional `upos`, `lemmas`, `xpos`,
    `feats`, `misc`, `comments`) -> a CoNLL-U block ending in a blank line."""
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
    return conllu.models.TokenList(
        [conllu.models.Token(token) for token in tokens], metadata=conllu.models.Metadata(comments)
    ).serialize()
