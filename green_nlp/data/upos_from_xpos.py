"""UPOS for text that only has Penn Treebank tags, learned from a treebank that has both columns.

The parsers here read gold UPOS, so English text tagged in the PTB tagset (CoNLL-2000, CoNLL-03)
needs UPOS before a teacher can parse it as a transfer set. A fixed PTB-to-UPOS table gets the
ambiguous tags wrong (VB* is VERB or AUX, DT is DET or PRON, NNP is PROPN or NOUN depending on the
word), so the choice is counted per (word, tag) on a UD treebank's own XPOS and UPOS columns, with
the tag's and then the word's most frequent UPOS as fallbacks. Written here because no maintained
library ships a UD-v2 English mapping.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from green_nlp.dataset_readers.conllu_sentences import DependencySentence

UNKNOWN_UPOS = "X"


def _most_frequent(counts: dict[Any, Counter]) -> dict[Any, str]:
    # ties go to the alphabetically first UPOS, so the mapping does not depend on reading order
    return {key: min(counter.items(), key=lambda item: (-item[1], item[0]))[0] for key, counter in counts.items()}


class UposFromXpos:
    """Maps (word, PTB tag) sequences to UPOS; build it with `fit` on sentences with both columns."""

    def __init__(
        self, by_word_and_tag: dict[tuple[str, str], str], by_tag: dict[str, str], by_word: dict[str, str]
    ) -> None:
        self.by_word_and_tag = by_word_and_tag
        self.by_tag = by_tag
        self.by_word = by_word

    @classmethod
    def fit(cls, sentences: Iterable[DependencySentence]) -> "UposFromXpos":
        pair_counts: defaultdict[tuple[str, str], Counter] = defaultdict(Counter)
        tag_counts: defaultdict[str, Counter] = defaultdict(Counter)
        word_counts: defaultdict[str, Counter] = defaultdict(Counter)
        seen = 0
        for sentence in sentences:
            if sentence.upos is None or len(sentence.xpos) != len(sentence.words):
                continue
            for word, xpos, upos in zip(sentence.words, sentence.xpos, sentence.upos):
                if xpos in ("", "_"):
                    continue
                word = word.lower()
                pair_counts[(word, xpos)][upos] += 1
                tag_counts[xpos][upos] += 1
                word_counts[word][upos] += 1
                seen += 1
        if not seen:
            raise ValueError("no word has both an XPOS and a UPOS: fit the mapping on a treebank with both columns")
        return cls(_most_frequent(pair_counts), _most_frequent(tag_counts), _most_frequent(word_counts))

    def __call__(self, words: Sequence[str], tags: Sequence[str]) -> list[str]:
        if len(words) != len(tags):
            raise ValueError(f"{len(words)} words but {len(tags)} tags")
        upos = []
        for word, tag in zip(words, tags):
            word = word.lower()
            upos.append(
                self.by_word_and_tag.get((word, tag)) or self.by_tag.get(tag) or self.by_word.get(word) or UNKNOWN_UPOS
            )
        return upos

    def accuracy(self, sentences: Iterable[DependencySentence]) -> float:
        """Share of words whose gold UPOS the mapping recovers from (word, XPOS): the tag noise a transfer set
        built with it carries, measured on a treebank's own columns."""
        right = total = 0
        for sentence in sentences:
            predicted = self(sentence.words, sentence.xpos)
            right += sum(p == g for p, g in zip(predicted, sentence.upos or []))
            total += len(sentence.words)
        if not total:
            raise ValueError("no words to score the mapping on")
        return right / total
