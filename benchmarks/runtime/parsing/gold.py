"""The test sentences: gold words, heads and relations from CoNLL-U, and how they batch."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional


def read_gold(path: Path, limit: Optional[int] = None) -> list[dict[str, Any]]:
    """The first `limit` sentences of a CoNLL-U file (all when None): words, UPOS, heads,
    relations and the `# text` comment; multiword tokens and empty nodes skipped, as the
    `conllu_dependencies` reader and `green_nlp.runtime.parser_agreement.read_conllu_words` skip them."""
    import conllu

    sentences = []
    with open(path, encoding="utf-8") as handle:
        for sentence in conllu.parse_incr(handle):
            tokens = [token for token in sentence if isinstance(token["id"], int)]
            if not tokens:
                continue
            sentences.append(
                {
                    "words": [t["form"] for t in tokens],
                    "upos": [t["upos"] for t in tokens],
                    "heads": [int(t["head"]) for t in tokens],
                    "deprels": [t["deprel"] for t in tokens],
                    "text": sentence.metadata.get("text"),
                }
            )
            if limit is not None and len(sentences) >= limit:
                break
    return sentences


def data_stats(gold: list[dict[str, Any]]) -> dict[str, int]:
    """The longest sentence (words) and word (characters): batches pad to both."""
    return {
        "longest_sentence_words": max(len(s["words"]) for s in gold),
        "longest_word_chars": max(len(word) for s in gold for word in s["words"]),
    }


def chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
