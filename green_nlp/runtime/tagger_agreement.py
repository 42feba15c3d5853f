"""How often the int8 graph of an exported tagger gives the fp32 graph's tags.

Dynamic quantization changes the tag scores a little; what matters is whether the decoded paths
change. `int8_agreement` tags the same sentences with both graphs of one folder and counts the
words, sentences and spans that stay the same.
"""

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Optional, Union

from green_nlp.runtime.tagger_results import bioes_spans


def int8_agreement(
    folder: Union[str, Path], sentences: Iterable[Sequence[str]], batch_size: int = 32, threads: Optional[int] = None
) -> dict[str, float]:
    """Agreement of `folder`'s int8 graph with its fp32 graph over pre-tokenized `sentences`:
    shares of words with the same tag (`tags`), of sentences tagged identically (`sentences`) and of
    fp32 spans int8 also finds (`spans`, 1.0 when fp32 finds none); `words` counts the words."""
    from green_nlp.runtime import load

    fp32 = load(folder, precision="fp32", threads=threads)
    int8 = load(folder, precision="int8", threads=threads)
    sentences = [list(words) for words in sentences]
    if not sentences:
        raise ValueError("int8_agreement needs at least one sentence")
    words = same_tag = same_sentence = spans = same_span = 0
    for a, b in zip(fp32.tag_sentences(sentences, batch_size), int8.tag_sentences(sentences, batch_size)):
        words += len(a)
        same_tag += sum(x == y for x, y in zip(a, b))
        same_sentence += a == b
        found = set(bioes_spans(b))
        spans += len(bioes_spans(a))
        same_span += sum(span in found for span in bioes_spans(a))
    return {
        "words": words,
        "tags": same_tag / words,
        "sentences": same_sentence / len(sentences),
        "spans": same_span / spans if spans else 1.0,
    }
