"""Cut a long text (a whole review) into sentences for the n-gram DAN, which learnt from sentences.

The DAN averages its n-grams' embeddings, so a review of 30 sentences gives one blurred average
that leans to the label of its most common n-grams; classifying each sentence and averaging their
logits (`ClassifierRuntime.split_sentences`) keeps each sentence's signal (benchmarks/dan/long_texts.py).

The cut is a regular expression, not spaCy's sentencizer: the sentencizer needs spaCy's tokenizer,
which costs several times the DAN's whole classification of a text and a second of start-up, while
the cut only chooses which n-grams are averaged together (the benchmark measures both splitters).
"""

import re

# a run of sentence-final marks, closing quotes or brackets after it, then whitespace: the cut goes
# after the closers, so every character of the text stays in exactly one sentence
SENTENCE_END = re.compile(r"[.!?]+[\"'\u201d\u2019)\]]*\s+")


def split_sentences(text: str) -> list[str]:
    """The text's sentences, stripped, in order; the text itself when it has no sentence end."""
    sentences, start = [], 0
    for end in SENTENCE_END.finditer(text):
        piece = text[start : end.end()].strip()
        if piece:
            sentences.append(piece)
        start = end.end()
    rest = text[start:].strip()
    if rest:
        sentences.append(rest)
    return sentences or [text]
