"""The numba engine of the n-gram DAN: a batch of texts -> logits, probabilities and n-gram counts
in one compiled call (`dan_numba_kernel`), from the folder's own int8 graph (`dan_graph_weights`).

Chosen per runtime (`ClassifierRuntime.set_engine("numba")`, `green-nlp classify --engine numba`),
never switched mid-run: every text of a run gets the same engine's answer. It agrees with the
onnxruntime engine on every SST-2 label and n-gram count and on probabilities to about 1e-7
(float32 sums in another order), but not bit for bit. Its price is the start: importing numba and
numba's set-up on its first call, cached machine code or not (about half a second more than the
onnxruntime engine; a first run also compiles, several seconds), which is why the onnxruntime
engine stays the default for one-off lines. The graph is read with protobuf (`onnx_reading`): the
`onnx` package's import alone cost more than that on a slow core.
"""

from collections.abc import Sequence
from pathlib import Path

import numpy

from green_nlp.runtime.dan_graph_weights import read_dan_weights
from green_nlp.runtime.ngram_table import NgramTable
from green_nlp.runtime.ngram_tokenizer import NgramTokenizer

INSTALL_HINT = "the numba engine needs numba: pip install 'green_nlp[numba]'"
_BREAK = chr(1)  # dan_numba_kernel.TEXT_BREAK


class NumbaDan:
    """The DAN of `graph` over `table`'s n-grams of lengths `ngram_range`, compiled with numba."""

    def __init__(self, graph: Path, table: NgramTable, ngram_range: tuple[int, int], tokenizer: NgramTokenizer) -> None:
        try:
            from green_nlp.runtime import dan_numba_kernel as kernel
        except ImportError as error:
            raise ImportError(f"{INSTALL_HINT} ({error})") from None
        if not tokenizer.fast:
            raise ValueError(
                f"the numba engine splits words as the default token pattern only, not {tokenizer.token_pattern!r}"
            )
        if not table.packs:
            raise ValueError("the numba engine needs n-gram keys that fit 64 bits; this vocabulary's do not")
        self._kernel = kernel.classify_bytes
        self._tokenizer = tokenizer
        weights = read_dan_weights(graph)
        self.labels = len(weights.output_bias)
        unigrams, keys, ids, shift, reach = table.probe_arrays()
        encoded = [word.encode("utf-8") for word in table.words]
        words = numpy.frombuffer(b"".join(encoded), dtype=numpy.uint8) if encoded else numpy.zeros(1, numpy.uint8)
        ends = numpy.zeros(len(encoded) + 1, dtype=numpy.int64)
        ends[1:] = numpy.cumsum([len(word) for word in encoded])
        slots = numpy.zeros(kernel.SLOT_FIELDS << max(4, (2 * len(encoded)).bit_length()), dtype=numpy.int64)
        kernel.fill_word_slots(words, ends, unigrams, slots)  # at most half of the slots taken
        # 16-32 filter bits a stored n-gram (the table holds one key in 4 slots or fewer): about 2-3 %
        # of the n-grams it does not hold pass the filter in vain
        filter_bits = max(10, (4 * len(keys)).bit_length())
        bits = numpy.zeros(1 << (filter_bits - 6), dtype=numpy.int64)
        kernel.fill_filter(keys, 64 - filter_bits, bits)
        pairs = numpy.stack([keys, ids.astype(numpy.int64)], axis=1).ravel()  # key, id, key, id ...
        parts = [pairs, slots, bits]
        starts = numpy.cumsum([kernel.PARAMS] + [len(part) for part in parts])[:-1].tolist()
        params = numpy.zeros(kernel.PARAMS, dtype=numpy.int64)
        params[[kernel.P_LOW, kernel.P_HIGH, kernel.P_BASE, kernel.P_SHIFT, kernel.P_REACH]] = [
            ngram_range[0],
            min(ngram_range[1], table.max_n),
            table.base,
            int(shift),
            reach,
        ]
        params[[kernel.P_ZERO, kernel.P_LOWER, kernel.P_UNKNOWN]] = [
            weights.table_zero,
            int(tokenizer.lowercase),
            table.unknown,
        ]
        params[[kernel.P_PAIRS, kernel.P_WORD_SLOTS, kernel.P_FILTER]] = starts
        params[kernel.P_SLOT_MASK] = len(slots) // kernel.SLOT_FIELDS - 1
        params[kernel.P_FILTER_SHIFT] = 64 - filter_bits
        params[[kernel.P_WIDTH, kernel.P_UNITS, kernel.P_LABELS]] = [*weights.hidden.shape, self.labels]
        params[kernel.P_TABLE_ROWS] = len(weights.table)
        # few, packed arguments: numba's call costs grow with their number
        self._lookup = numpy.concatenate([params, *parts])
        self._blob = numpy.concatenate([weights.table.ravel(), words])
        self._dense = numpy.concatenate(
            [
                numpy.array([weights.table_scale], dtype=numpy.float32),
                weights.hidden.ravel(),
                weights.hidden_bias,
                weights.output.T.ravel(),  # label by label, as the kernel reads them
                weights.output_bias,
            ]
        )

    def _piece(self, text: str) -> str:
        """One text as the kernel splits it: an ASCII text as it is (a TEXT_BREAK byte in it, not a
        word byte, becomes a space); any other its tokenizer's words joined by spaces (the kernel
        splits and lowers ASCII only)."""
        if text.isascii():
            return text.replace(_BREAK, " ") if _BREAK in text else text
        return " ".join(self._tokenizer.runs(text))

    def run(self, texts: Sequence[str]) -> list[list[float]]:
        """One row per text: its logits, its probabilities, its n-gram count and the index of its
        most probable label (the last two as floats)."""
        if len(texts) == 1:
            text = texts[0]
            joined = text if text.isascii() and _BREAK not in text else self._piece(text)
        else:
            joined = _BREAK.join(map(self._piece, texts))
        scores = numpy.empty((len(texts), 2 * self.labels + 2), dtype=numpy.float64)
        self._kernel(joined.encode("utf-8"), self._lookup, self._blob, self._dense, scores)
        rows: list[list[float]] = scores.tolist()
        return rows
