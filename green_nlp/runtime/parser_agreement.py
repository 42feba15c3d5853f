"""How often the int8 graph of an exported parser gives the fp32 graph's answers.

Dynamic quantization changes the scores a little; what matters is whether the decoded trees
change. `int8_agreement` parses the same sentences with both graphs of one folder and counts the
words whose head, head and label, UPOS, and (from a model with those heads) lemma, UFeats and XPOS
stay the same. Benchmarks call it beside their
accuracy figures, which say whether the changes that do happen cost anything.
"""

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Optional, Union

import conllu

TokensAndTags = tuple[Sequence[str], Optional[Sequence[str]]]


def read_conllu_words(
    path: Union[str, Path], with_upos: bool = True
) -> Iterator[tuple[list[str], Optional[list[str]]]]:
    """(words, UPOS or None) of each sentence of a CoNLL-U file; multiword tokens and empty nodes
    skipped, as the `conllu_dependencies` reader skips them."""
    with open(path, encoding="utf-8") as handle:
        for sentence in conllu.parse_incr(handle):
            tokens = [token for token in sentence if isinstance(token["id"], int)]
            if tokens:
                yield [t["form"] for t in tokens], ([t["upos"] for t in tokens] if with_upos else None)


def int8_agreement(
    folder: Union[str, Path], sentences: Iterable[TokensAndTags], batch_size: int = 32, threads: Optional[int] = None
) -> dict[str, float]:
    """Agreement of `folder`'s int8 graph with its fp32 graph over `sentences` ((words, UPOS or
    None) pairs): shares of words with the same head (`heads`), the same head and label
    (`heads_and_labels`), the same UPOS when the model tags (`upos`), and of sentences parsed
    identically (`sentences`); `words` counts the words compared."""
    from green_nlp.runtime import load

    fp32 = load(folder, precision="fp32", threads=threads)
    int8 = load(folder, precision="int8", threads=threads)
    sentences = [(list(words), list(upos) if upos is not None else None) for words, upos in sentences]
    if not sentences:
        raise ValueError("int8_agreement needs at least one sentence")
    words = same_head = same_arc = same_upos = same_sentence = 0
    columns = ("lemmas", "feats", "xpos")
    same_column = dict.fromkeys(columns, 0)
    for a, b in zip(fp32.parse_sentences(sentences, batch_size), int8.parse_sentences(sentences, batch_size)):
        words += len(a.words)
        same_head += sum(x == y for x, y in zip(a.heads, b.heads))
        same_arc += sum(x == y for x, y in zip(zip(a.heads, a.deprels), zip(b.heads, b.deprels)))
        same_upos += sum(x == y for x, y in zip(a.upos or [], b.upos or []))
        for column in columns:
            same_column[column] += sum(x == y for x, y in zip(getattr(a, column) or [], getattr(b, column) or []))
        same_sentence += all(getattr(a, key) == getattr(b, key) for key in ("heads", "deprels", "upos", *columns))
    result: dict[str, float] = {
        "words": words,
        "sentences": same_sentence / len(sentences),
        "heads": same_head / words,
        "heads_and_labels": same_arc / words,
    }
    if fp32.meta.get("predicts_upos"):
        result["upos"] = same_upos / words
    for column in columns:
        if fp32.meta["outputs"].get("lemma_rules" if column == "lemmas" else column):
            result[column] = same_column[column] / words
    return result
