"""
Transfer-set augmentation for distillation when no unlabeled corpus of the task's kind exists
here (TREC: the paper distils on 65M PAQ questions): perturbed copies of the training texts,
which the teacher then labels like any other unlabeled text.

After Tang et al. (2019), "Distilling Task-Specific Knowledge from BERT into Simple Neural
Networks": each word is masked with probability `p_mask` or else replaced with probability
`p_replace`, and with probability `p_ngram` the copy is cut down to a random span of 1 to
`max_ngram` words. Their replacement draws a word of the same part of speech, which needs a tagger
that is not available offline; here it draws from the corpus's own word frequencies. Written by
hand (a few lines) because the augmentation libraries on PyPI either need downloaded models or do
not take a seeded generator and a corpus-frequency sampler.
"""

import bisect
import itertools
import os
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Optional

from green_nlp.dataset_readers.text_classification import read_examples, split_heldout

MASK_TOKEN = "[MASK]"  # the teacher's (BERT word-piece) mask token


class WordSampler:
    """Draws words in proportion to their frequency in a corpus (O(log V) per draw)."""

    def __init__(self, texts: Iterable[str]) -> None:
        counts = Counter(word for text in texts for word in text.split())
        if not counts:
            raise ValueError("cannot augment an empty corpus: no words to draw replacements from")
        self.words = list(counts)
        self.cumulative = list(itertools.accumulate(counts[word] for word in self.words))

    def draw(self, rng: random.Random) -> str:
        point = rng.random() * self.cumulative[-1]
        return self.words[bisect.bisect_right(self.cumulative, point)]


def check_probabilities(p_mask: float, p_replace: float, p_ngram: float, max_ngram: int) -> None:
    for name, value in (("p_mask", p_mask), ("p_replace", p_replace), ("p_ngram", p_ngram)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], got {value}")
    if p_mask + p_replace > 1.0:
        raise ValueError(f"p_mask + p_replace must be <= 1, got {p_mask + p_replace}")
    if max_ngram < 1:
        raise ValueError(f"max_ngram must be >= 1, got {max_ngram}")


def augment_words(
    words: Sequence[str],
    rng: random.Random,
    sampler: WordSampler,
    p_mask: float = 0.1,
    p_replace: float = 0.1,
    p_ngram: float = 0.25,
    max_ngram: int = 5,
    mask_token: str = MASK_TOKEN,
) -> list[str]:
    """One perturbed copy of `words` (Tang et al.'s per-word rule, then the n-gram cut)."""
    copy = []
    for word in words:
        roll = rng.random()
        if roll < p_mask:
            copy.append(mask_token)
        elif roll < p_mask + p_replace:
            copy.append(sampler.draw(rng))
        else:
            copy.append(word)
    if copy and rng.random() < p_ngram:
        length = rng.randint(1, min(max_ngram, len(copy)))
        start = rng.randint(0, len(copy) - length)
        copy = copy[start : start + length]
    return copy


def augmented_copies(
    texts: Iterable[str], sampler: WordSampler, copies: int, seed: int = 13, max_tries: int = 3, **rule: float
) -> Iterator[str]:
    """Up to `copies` distinct perturbed copies of each text, none equal to the text itself (after
    `copies * max_tries` draws a short text may yield fewer: it has few distinct copies)."""
    if copies < 1:
        raise ValueError(f"copies must be >= 1, got {copies}")
    rng = random.Random(seed)
    for text in texts:
        words = text.split()
        seen = {text}
        made = 0
        for _ in range(copies * max_tries):
            if made == copies:
                break
            copy = " ".join(augment_words(words, rng, sampler, **rule))  # type: ignore[arg-type]
            if copy and copy not in seen:
                seen.add(copy)
                made += 1
                yield copy


def write_augmented_texts(
    input_path: str,
    output_path: str,
    copies: int = 20,
    seed: int = 13,
    format: str = "auto",
    split: str = "all",
    dev_every: int = 10,
    p_mask: float = 0.1,
    p_replace: float = 0.1,
    p_ngram: float = 0.25,
    max_ngram: int = 5,
    fine_labels: bool = False,
    max_examples: Optional[int] = None,
) -> int:
    """
    Write augmented copies of a classification file's texts, one per line (the `lines` format
    `green-label-teacher --format lines` takes), and return how many. `split`/`dev_every` pick the
    part of the file the teacher trained on, so a carved dev set stays unseen; `max_examples` keeps
    the first texts of that part only (the words to draw from come from the same texts). Written to a
    temporary name and renamed when complete: a half-written file is never taken for a result.
    """
    check_probabilities(p_mask, p_replace, p_ngram, max_ngram)

    def texts() -> Iterator[str]:
        examples = split_heldout(read_examples(input_path, format, fine_labels), split, dev_every)
        return (example.text for example in itertools.islice(examples, max_examples))

    sampler = WordSampler(texts())
    partial = f"{output_path}.partial"
    count = 0
    with open(partial, "w", encoding="utf-8") as out:
        for line in augmented_copies(
            texts(), sampler, copies, seed, p_mask=p_mask, p_replace=p_replace, p_ngram=p_ngram, max_ngram=max_ngram
        ):
            out.write(line.replace("\n", " ") + "\n")
            count += 1
    os.replace(partial, output_path)
    return count
