"""Each word's character vector, computed once: the encoder graph of a split parser folder
(`export.character_split`) runs only on the words of a batch that it has not met before.

A text repeats its words across batches (UD English-EWT test: 14,281 distinct-word rows over its
batches, 5,656 distinct words), and the character CNN was about a fifth of the whole graph's time.

A word's vector depends on its characters alone, never on its batch: the encoder pads every call
to at least one character past `min_padding_length` (the widest convolution). At exactly that
width onnxruntime's convolution takes another path whose float rounding differs in the last bit
(3e-7 for three-letter words); from one character wider the vector is bit-identical at every
width. So a parse does not depend on which batch first met a word, nor on the cache being full.

Memory stays bounded: past `capacity` words the cache starts again (at 100 floats a word, the
default keeps at most 20 MB).
"""

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from green_nlp.runtime.parser_inputs import WORD_CELLS_PER_CALL, ParserInputs

DEFAULT_CAPACITY = 50_000  # words whose vectors are kept
_FIRST_ROWS = 1024  # the table starts this tall and doubles as words come


class CharacterVectors:
    """word -> its character vector (float32), for the distinct words of one batch at a time."""

    def __init__(
        self, session: Any, input_name: str, output_name: str, inputs: ParserInputs, capacity: int = DEFAULT_CAPACITY
    ) -> None:
        if capacity <= WORD_CELLS_PER_CALL:  # one model call's distinct words must fit at once
            raise ValueError(f"capacity must be over {WORD_CELLS_PER_CALL} words, got {capacity}")
        self.session, self.input_name, self.output_name = session, input_name, output_name
        self.inputs = inputs
        self.capacity = capacity
        self.min_width = inputs.min_chars + 1  # see the module docstring
        self._rows: dict[str, int] = {}
        self._table = np.zeros((0, 0), dtype=np.float32)
        self._lock = threading.Lock()  # a model shared by threads: the table may be replaced

    def __len__(self) -> int:
        return len(self._rows)

    def clear(self) -> None:
        with self._lock:
            self._rows = {}

    def __call__(self, words: Sequence[str]) -> np.ndarray:
        """(len(words), dim) vectors of distinct `words`, in their order."""
        with self._lock:
            rows = self._rows
            missing = [word for word in words if word not in rows]
            if missing:
                if len(rows) + len(missing) > self.capacity:
                    rows = self._rows = {}
                    missing = list(words)
                self._store(missing, self._encode(missing))
            return self._table[[rows[word] for word in words]]

    def _encode(self, words: list[str]) -> np.ndarray:
        char_ids = self.inputs.char_id_rows(words, self.min_width)
        return np.asarray(self.session.run([self.output_name], {self.input_name: char_ids})[0], dtype=np.float32)

    def _store(self, words: list[str], vectors: np.ndarray) -> None:
        start = len(self._rows)
        end = start + len(words)
        if end > self._table.shape[0] or vectors.shape[1] != self._table.shape[1]:
            height = max(_FIRST_ROWS, self._table.shape[0])
            while height < end:
                height *= 2
            table = np.zeros((min(max(height, end), self.capacity), vectors.shape[1]), dtype=np.float32)
            if vectors.shape[1] == self._table.shape[1]:
                table[:start] = self._table[:start]
            self._table = table
        self._table[start:end] = vectors
        self._rows.update(zip(words, range(start, end)))
