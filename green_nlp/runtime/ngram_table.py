"""Exact n-gram -> vocabulary id lookup: for a whole batch, each n-gram is one integer, looked up in a
few numpy calls; for one text, each is the string CountVectorizer makes of it, looked up in a dict.

Why integers: the words of the vocabulary's n-grams are numbered 1..V, and the n-gram w1..wn is
the base-(V + 4) number with those digits. Distinct n-grams, of any lengths, get distinct numbers
(no hashing collisions), so a hit is the vocabulary's own answer. Digit V + 1 stands for a word
outside the vocabulary and V + 2 for the boundary between two texts of a batch; no vocabulary
n-gram holds either, so every n-gram crossing one misses. Digit V + 3 marks the tokenizer's
`skip_tokens` (runs its fast split leaves that are not tokens), dropped as the words are looked up.

Why this shape: at batch 32 the cost was the number of numpy calls, not the arithmetic (the word
trie this replaces made about 15 per n-gram length, one a binary search over 1.5 MB of keys that
the rest of the pipeline pushes out of cache). Here the keys of every length are built by slicing
and looked up together in an open-addressing table laid out so that every key sits within
`window` slots of its home slot: a gather at each key's home settles most keys (a stored key there,
or an empty slot), and only the rest are compared with the window; no probing loop.
"""

from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Optional, Union

import numpy

from green_nlp.runtime.ngram_index import NgramIndex

# Fibonacci hashing: the home slot is the top bits of key * 2^64 / golden ratio (mod 2^64)
_MULTIPLIER = numpy.uint64(0x9E3779B97F4A7C15)
_INT64_MAX = 2**63 - 1
# Single texts looked up with the batch arrays before `text_ids` builds its dict: the dict saves about
# 70 us a text (75 against 145 on SST-2 test, a slow core) but costs about 0.15 s to build (SST-2's
# 200,000 n-grams), so a run of a few texts (a command's first line, a cold start) never pays for it
# and a long run pays it once, after about as many texts as it takes to earn it back.
DICT_AFTER_TEXTS = 2000


class NgramTable:
    """Vocabulary n-grams (space-separated words, id = `first_id` + position) as integer keys."""

    def __init__(
        self,
        ngrams: Union[Sequence[str], NgramIndex],
        first_id: int = 2,
        boundary_token: Optional[str] = None,
        skip_tokens: Sequence[str] = (),
        ngram_list: Optional[Callable[[], Optional[Sequence[str]]]] = None,
    ) -> None:
        """`ngrams`: the vocabulary's n-grams, or the same already numbered (`NgramIndex`, as a
        folder's `ngrams.index.npz` holds them: a faster start). `ngram_list`: with an index, where
        its n-grams as strings are read from when one text's lookup first needs them (a folder's
        `ngrams.txt`: reading it costs about a sixth of rebuilding them from the index); when it gives
        None, or a list of another length, they are rebuilt from the index."""
        if first_id < 1:
            raise ValueError(f"first_id must be at least 1 (0 pads and is never an n-gram), got {first_id}")
        index = ngrams if isinstance(ngrams, NgramIndex) else NgramIndex.from_ngrams(ngrams)
        self._ngram_list = ngram_list if isinstance(ngrams, NgramIndex) else lambda: ngrams
        self._index = index if isinstance(ngrams, NgramIndex) else None
        words = {word: digit for digit, word in enumerate(index.words, start=1)}
        self.words: Sequence[str] = index.words  # word k - 1 has digit k
        digits, lengths = index.digits, index.lengths
        self.unknown, self.boundary, self.skip = len(words) + 1, len(words) + 2, len(words) + 3
        self.base = len(words) + 4
        self.max_n = int(lengths.max(initial=0))
        # numpy's int64 keys hold every n-gram a batch can form only while base^max_n fits
        self.packs = self.base**self.max_n <= _INT64_MAX
        keys = self._keys(digits, lengths)
        self._first_id = first_id
        if self._has_duplicates(keys):
            seen: set[int] = set()
            for position, key in enumerate(keys):
                if key in seen:
                    raise ValueError(f"n-gram {index.ngram(position)!r} appears twice in the vocabulary")
                seen.add(key)
        self._digits = words  # the vocabulary's words, then the tokens with a digit of their own
        if boundary_token is not None:
            if boundary_token in words:
                raise ValueError(f"the boundary token {boundary_token!r} is a vocabulary word")
            self._digits[boundary_token] = self.boundary
        for token in skip_tokens:
            if token in words or token == boundary_token:
                raise ValueError(f"the skipped token {token!r} is a vocabulary word or the boundary")
            self._digits[token] = self.skip
        self._skips = bool(skip_tokens)
        self._skipped = frozenset(skip_tokens)
        # Each lookup structure is built on its first use: a run that only classifies a few texts at a
        # time never needs the arrays, one of whole batches rarely the dict, and each costs ~30-50 ms
        # of a start that is ~0.45 s in all.
        self._all_keys, self._lengths = keys, lengths
        self._strings_built: Optional[dict[str, int]] = None
        self._arrays_built = False
        self._texts_before_dict = 0

    def _by_string(self) -> dict[str, int]:
        """For one text (`text_ids`), where plain Python beats numpy's fixed cost per call: n-gram
        string -> id, as CountVectorizer's own vocabulary maps them."""
        if self._strings_built is None:
            ngrams = self._ngram_list() if self._ngram_list is not None else None
            if (ngrams is None or len(ngrams) != len(self._lengths)) and self._index is not None:
                ngrams = self._index.ngrams()
            assert ngrams is not None  # a table built from a list has its list
            self._strings_built = dict(zip(ngrams, range(self._first_id, self._first_id + len(ngrams))))
        return self._strings_built

    def _arrays(self) -> None:
        if not self._arrays_built:
            ids = numpy.arange(self._first_id, self._first_id + len(self._all_keys), dtype=numpy.int64)
            self._build_arrays(numpy.asarray(self._all_keys, dtype=numpy.int64), ids, self._lengths)
            self._arrays_built = True

    @staticmethod
    def _has_duplicates(keys: Union[numpy.ndarray, list[int]]) -> bool:
        if isinstance(keys, numpy.ndarray):  # a sort: a set of 200,000 Python ints costs twice as much
            ordered = numpy.sort(keys)
            return bool((ordered[1:] == ordered[:-1]).any())
        return len(set(keys)) != len(keys)

    def _keys(self, digits: numpy.ndarray, lengths: numpy.ndarray) -> Union[numpy.ndarray, list[int]]:
        """Each n-gram's integer: an int64 array when it fits, else a list of Python integers."""
        starts = numpy.cumsum(lengths) - lengths
        if not self.packs:
            keys = []
            for start, length in zip(starts.tolist(), lengths.tolist()):
                key = 0
                for digit in digits[start : start + length].tolist():
                    key = key * self.base + digit
                keys.append(key)
            return keys
        if not len(lengths):
            return numpy.zeros(0, dtype=numpy.int64)
        # each digit's power of the base: n-gram length - 1 - its place in the n-gram
        place = numpy.arange(len(digits)) - numpy.repeat(starts, lengths)
        powers = numpy.repeat(lengths, lengths) - 1 - place
        return numpy.add.reduceat(digits * self.base**powers, starts)

    def _build_arrays(self, keys: numpy.ndarray, ids: numpy.ndarray, lengths: numpy.ndarray) -> None:
        """1-gram ids by word digit, and the table of longer n-grams: linear probing without
        wrap-around, at most a quarter full, so each key lies within `window` slots of its home."""
        self._unigram_ids = numpy.zeros(self.base, dtype=numpy.int64)
        single = lengths == 1
        self._unigram_ids[keys[single]] = ids[single]
        keys, ids = keys[~single], ids[~single]
        bits = max(4, int(len(keys) * 4 - 1).bit_length())
        self._shift = numpy.uint64(64 - bits)
        home = self._home(keys)
        order = numpy.argsort(home, kind="stable")
        rank = numpy.arange(len(keys))
        # sorted by home slot, key i goes to the first free slot at or after its home
        slots = rank + numpy.maximum.accumulate(home[order] - rank) if len(keys) else rank
        reach = int((slots - home[order]).max(initial=0))
        self._table_keys = numpy.full((1 << bits) + reach + 1, -1, dtype=numpy.int64)
        self._table_ids = numpy.zeros(len(self._table_keys), dtype=numpy.int32)
        self._table_keys[slots], self._table_ids[slots] = keys[order], ids[order]
        self._window = numpy.arange(reach + 1)

    def probe_arrays(self) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray, numpy.uint64, int]:
        """The batch lookup as arrays, for a compiled walk of the same table (`dan_numba_kernel`):
        1-gram ids by digit, the table's keys and ids, the shift giving a key's home slot, and how
        many slots after its home a key may lie."""
        self._arrays()
        return self._unigram_ids, self._table_keys, self._table_ids, self._shift, len(self._window) - 1

    def _home(self, keys: numpy.ndarray) -> numpy.ndarray:
        return ((keys.view(numpy.uint64) * _MULTIPLIER) >> self._shift).astype(numpy.intp)

    def word_digits(self, tokens: Sequence[str]) -> numpy.ndarray:
        """Each token's digit (its word's, `unknown`, or `boundary` for the boundary token), the
        skipped tokens left out."""
        found = map(self._digits.get, tokens, repeat(self.unknown))  # no Python frame per token
        digits = numpy.fromiter(found, dtype=numpy.int64, count=len(tokens))
        return digits[digits != self.skip] if self._skips else digits

    def lookup(
        self, digits: numpy.ndarray, text_of_position: numpy.ndarray, low: int, high: int
    ) -> tuple[numpy.ndarray, numpy.ndarray]:
        """(vocabulary id, text) of every vocabulary n-gram of length in [low, high] in `digits`
        (`word_digits` of a batch), all 1-grams first, then all 2-grams, ...; needs `packs`."""
        self._arrays()
        top = min(high, self.max_n)
        found, texts, keys = [], [], digits
        if low == 1 and top >= 1:  # 1-gram keys are digits: their ids come from an array
            found.append(self._unigram_ids[digits])
            texts.append(text_of_position)
        longer = []
        for n in range(2, top + 1):
            keys = keys[:-1] * self.base + digits[n - 1 :]
            if n >= low:
                longer.append(keys)
                texts.append(text_of_position[: len(keys)])
        if longer:
            found.append(self._get(numpy.concatenate(longer) if len(longer) > 1 else longer[0]))
        if not found:
            return numpy.zeros(0, dtype=numpy.int64), numpy.zeros(0, dtype=numpy.int64)
        ids = numpy.concatenate(found) if len(found) > 1 else found[0]
        hits = numpy.flatnonzero(ids)
        return ids[hits], numpy.concatenate(texts)[hits]

    def _get(self, keys: numpy.ndarray) -> numpy.ndarray:
        """The table's id of each key (int64), 0 where it holds none. Two rounds: each key's home
        slot first, which settles a key stored there and, when the slot is empty, a key the table
        does not hold (linear probing: a stored key's home slot is never empty); only the rest,
        about one key in seven on SST-2, is matched against the window after its home."""
        home = self._home(keys)
        found = self._table_keys[home]
        hit = found == keys
        ids = numpy.where(hit, self._table_ids[home], 0).astype(numpy.int64)
        rest = numpy.flatnonzero(~hit & (found >= 0))
        if len(rest):
            slots = home[rest, None] + self._window[1:]
            # a key matches at most one slot of its window: the flat positions of the matches, row-major
            matches = numpy.flatnonzero(self._table_keys[slots] == keys[rest, None])
            ids[rest[matches // (len(self._window) - 1)]] = self._table_ids[slots.ravel()[matches]]
        return ids

    def text_ids(self, tokens: Sequence[str], low: int, high: int) -> list[int]:
        """The vocabulary ids of one text's n-grams with length in [low, high], 1-grams first, as
        `lookup` finds them; plain Python, each n-gram looked up as the string CountVectorizer
        makes of it (its words joined by a space), with the joining and the lookups in C (`map`).
        As fast as the walk over integer keys it replaced (65 against 66 us a text on SST-2 test,
        one process, alternating passes), whose prefix filter kept most n-grams on SST-2, and
        simpler: CountVectorizer's own keys, nothing derived. The first `DICT_AFTER_TEXTS` texts go
        through the batch arrays instead, while building the dict would cost more than it saves."""
        if self._strings_built is None and self.packs and self._texts_before_dict < DICT_AFTER_TEXTS:
            self._texts_before_dict += 1
            text_digits = self.word_digits(tokens)
            hits, _ = self.lookup(text_digits, numpy.zeros(len(text_digits), dtype=numpy.int64), low, high)
            return hits.tolist()
        find = self._by_string().get
        words = [token for token in tokens if token not in self._skipped] if self._skips else list(tokens)
        ids: list[int] = []
        for n in range(max(low, 1), min(high, self.max_n) + 1):
            ngrams = words if n == 1 else map(" ".join, zip(*[words[k:] for k in range(n)]))
            ids.extend(filter(None, map(find, ngrams)))  # ids start at first_id >= 1: None is a miss
        return ids
