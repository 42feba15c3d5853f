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
default keeps at most 20 MB), and no encoder call holds more than `CHARACTER_CELLS_PER_CALL` cells.

`encode_ahead` runs the encoder on a whole window's new words before its batches: each call costs
onnxruntime a fixed overhead over the graph's many small operators, and EWT test's words encoded
ahead took 6 calls where its batches one by one took 165, the feed and encoder 2.52 against 3.12 CPU-µs
a token (`benchmarks.parser.character_encoder`).
"""

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from green_nlp.runtime.parser_inputs import (
    CHARACTER_CELLS_PER_CALL,
    MAX_WORD_CHARACTERS,
    WORD_CELLS_PER_CALL,
    ParserInputs,
)

DEFAULT_CAPACITY = 50_000  # words whose vectors are kept
_FIRST_ROWS = 1024  # the table starts this tall and doubles as words come
# an encoder call's longest word at most this many times its shortest (or the least width): EWT test's
# new words are then padded to 9.7 characters a word on average, against 26.7 in one call a batch, and a
# cold pass's feed and encoder took 2.70 against 3.68 µs a token (`benchmarks.parser.character_encoder`)
WIDTH_RATIO: float = 2


def length_runs(lengths: Sequence[int], min_width: int) -> list[range]:
    """Consecutive runs of ascending `lengths`, each run's longest at most `WIDTH_RATIO` times its
    first (or `min_width`, the width every call pads to at least), and its words times that width
    at most `CHARACTER_CELLS_PER_CALL` (a run of one word may pass it)."""
    runs, start = [], 0
    for i in range(1, len(lengths) + 1):
        if (
            i == len(lengths)
            or lengths[i] > WIDTH_RATIO * max(min_width, lengths[start])
            or (i + 1 - start) * max(min_width, lengths[i]) > CHARACTER_CELLS_PER_CALL
        ):
            runs.append(range(start, i))
            start = i
    return runs


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

    def encode_ahead(self, words: Sequence[str]) -> None:
        """Encode the words not met before among `words` (each once) in as few calls as their lengths
        allow, so the batches that follow find them kept. Nothing when they would fill more than half
        the cache: the batches then encode their own words as they come."""
        with self._lock:
            missing = [word for word in dict.fromkeys(words) if word not in self._rows]
            if not missing or 2 * (len(self._rows) + len(missing)) > self.capacity:
                return
            self._store(missing, self._encode(missing))

    def _encode(self, words: list[str]) -> np.ndarray:
        """The vectors of `words`, in their order, from encoder calls over words of similar length:
        one call pads every word to its longest (EWT test's new words of a batch, 6.8 characters on
        average, to 26.7), and a word's vector does not depend on the width."""
        lengths = [min(len(word), MAX_WORD_CHARACTERS) for word in words]  # what the encoder reads of a word
        order = np.argsort(lengths, kind="stable")
        ordered = [words[i] for i in order]
        found = [
            self.session.run([self.output_name], {self.input_name: self.inputs.char_id_rows(part, self.min_width)})[0]
            for part in (ordered[run.start : run.stop] for run in length_runs(sorted(lengths), self.min_width))
        ]
        return np.asarray(np.concatenate(found)[np.argsort(order)], dtype=np.float32)  # back in `words`' order

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
