"""Texts -> the n-gram ids the exported DAN takes (padded by `pad`), for a whole batch in one pass.

Same ids as the AllenNLP reader's `NgramField` (CountVectorizer's analyzer, then the vocabulary,
n-grams outside it dropped), in the same order per text (1-grams, then 2-grams, ...), 0 as
padding. The batch's tokens are looked up together so numpy's per-call cost is paid once per batch,
not once per text; batches below `SMALL_BATCH` texts, where that fixed cost (about 20 numpy calls)
outweighs the per-text work, go through the table's plain-Python path instead, as do all batches
of a (never exported) non-default token pattern and of a vocabulary too large for int64 keys.
"""

from collections.abc import Callable, Sequence
from typing import Optional, Union

import numpy

from green_nlp.runtime.ngram_index import NgramIndex
from green_nlp.runtime.ngram_table import NgramTable
from green_nlp.runtime.ngram_tokenizer import DEFAULT_TOKEN_PATTERN, SEPARATOR, NgramTokenizer

SMALL_BATCH = 4  # measured on SST-2: numpy's path costs about as much as 3-4 texts in Python


class NgramExtractor:
    def __init__(
        self,
        ngrams: Union[Sequence[str], NgramIndex],
        ngram_range: tuple[int, int] = (1, 4),
        token_pattern: str = DEFAULT_TOKEN_PATTERN,
        lowercase: bool = True,
        first_id: int = 2,
        ngram_list: Optional[Callable[[], Optional[Sequence[str]]]] = None,
    ) -> None:
        """`ngram_list`: where the n-grams of an `NgramIndex` are read as strings (`NgramTable`)."""
        low, high = ngram_range
        if not 1 <= low <= high:
            raise ValueError(f"ngram_range must be (low, high) with 1 <= low <= high, got {ngram_range}")
        self.ngram_range = (low, high)
        self.tokenizer = NgramTokenizer(token_pattern, lowercase)
        fast = self.tokenizer.fast
        self.table = NgramTable(
            ngrams,
            first_id,
            boundary_token=SEPARATOR if fast else None,
            skip_tokens=self.tokenizer.short_runs,
            ngram_list=ngram_list,
        )

    def ids(self, texts: Sequence[str]) -> tuple[numpy.ndarray, numpy.ndarray]:
        """All texts' n-gram ids (int64) one text after the other, and each text's count."""
        size = len(texts)
        if size < SMALL_BATCH or not self.tokenizer.fast or not self.table.packs:
            return self._small_batch_ids(texts)
        digits = self.table.word_digits(self.tokenizer.batch_runs(texts))
        text_of_position = numpy.cumsum(digits == self.table.boundary)
        ids, text = self.table.lookup(digits, text_of_position, *self.ngram_range)
        order = numpy.argsort(text, kind="stable")  # by text, keeping 1-grams before 2-grams ...
        return ids[order], numpy.bincount(text, minlength=size)

    def _small_batch_ids(self, texts: Sequence[str]) -> tuple[numpy.ndarray, numpy.ndarray]:
        rows = [self.table.text_ids(self.tokenizer.runs(text), *self.ngram_range) for text in texts]
        flat = numpy.array([i for row in rows for i in row], dtype=numpy.int64)
        return flat, numpy.array([len(row) for row in rows], dtype=numpy.int64)


def pad(ids: numpy.ndarray, counts: numpy.ndarray, rows: Optional[numpy.ndarray] = None) -> numpy.ndarray:
    """The (len(rows), max(1, longest)) 0-padded matrix of `rows` (default all) of `ids, counts`
    as `NgramExtractor.ids` returns them."""
    if rows is None and len(counts) == 1:  # one text (`classify`): no numpy indexing needed
        return ids.reshape(1, -1) if len(ids) else numpy.zeros((1, 1), dtype=numpy.int64)
    offsets = numpy.cumsum(counts) - counts
    if rows is not None:
        lengths = counts[rows]
        # positions in `ids` of the chosen rows' n-grams, row after row
        ids = ids[
            numpy.repeat(offsets[rows] - (numpy.cumsum(lengths) - lengths), lengths) + numpy.arange(int(lengths.sum()))
        ]
        counts = lengths
        offsets = numpy.cumsum(counts) - counts
    padded = numpy.zeros((len(counts), max(1, int(counts.max(initial=0)))), dtype=numpy.int64)
    row_of = numpy.repeat(numpy.arange(len(counts)), counts)
    padded[row_of, numpy.arange(len(ids)) - offsets[row_of]] = ids
    return padded
