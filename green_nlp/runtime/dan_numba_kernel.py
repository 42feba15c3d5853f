"""The n-gram DAN from text bytes to probabilities as one numba-compiled call (imports numba).

Why compiled: at batch 1 the onnxruntime engine spends most of a text in fixed per-call costs (a
session call, numpy calls, Python per token and per n-gram), several times fastText's whole
prediction, while the arithmetic is a few thousand operations. Here one call does a whole batch:
it splits each text into CountVectorizer's tokens (maximal runs of two or more word bytes, ASCII
upper case lowered), finds each word's digit in a hash table of the vocabulary's words, forms the
1- to 4-gram keys and finds them in `NgramTable`'s open-addressing table (the same keys, home slots
and window as `NgramTable._get`), and runs the graph's arithmetic on the hits (`dan_graph_weights`):
the int8 rows summed as int32, scaled once, divided by the count; the two float32 layers, each
unit's sum taken in one fixed order (numba's default: no fast-math, so no reassociation or fused
multiply-adds); softmax. Each text is computed alone, so its answer does not depend on the batch.

Arguments are packed into a few arrays (`dan_numba.NumbaDan` lays them out; the P_* positions
below) because numba's call costs grow with their number: 20 arguments cost about 3.5 us a call,
as much as the work. `cache=True` keeps the machine code beside this file (or in numba's user
cache), so only a first run compiles.
"""

import numba
import numpy

_MULTIPLIER = numpy.uint64(0x9E3779B97F4A7C15)  # NgramTable's Fibonacci hashing
_FNV_OFFSET = numpy.uint64(0xCBF29CE484222325)  # FNV-1a, 64 bits, for the words' hash table
_FNV_PRIME = numpy.uint64(0x100000001B3)
TEXT_BREAK = 1  # the byte between two texts of a batch

# positions in the `params` array
P_LOW, P_HIGH, P_BASE, P_SHIFT, P_REACH, P_ZERO, P_LOWER, P_UNKNOWN = range(8)
P_UNIGRAMS, P_KEYS, P_IDS, P_WORD_ENDS, P_WORDS, P_WORD_SLOTS, P_SLOT_MASK = range(8, 15)
P_WIDTH, P_UNITS, P_LABELS = range(15, 18)
PARAMS = 18


@numba.njit(cache=True, nogil=True)
def _lowered(byte: int, lowercase: int) -> int:
    return byte + 32 if lowercase and 65 <= byte <= 90 else byte


@numba.njit(cache=True, nogil=True)
def _is_word_byte(byte: int) -> bool:
    """`\\w` on ASCII, and every byte of a non-ASCII character (`dan_numba` hands non-ASCII texts
    over already tokenized by the regex, tokens separated by spaces)."""
    return 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122 or byte == 95 or byte >= 128


@numba.njit(cache=True, nogil=True)
def word_hash(data: numpy.ndarray, start: int, end: int, lowercase: int) -> numpy.uint64:
    value = _FNV_OFFSET
    for position in range(start, end):
        value = (value ^ numpy.uint64(_lowered(data[position], lowercase))) * _FNV_PRIME
    return value


@numba.njit(cache=True, nogil=True)
def _word_digit(
    data: numpy.ndarray, start: int, end: int, params: numpy.ndarray, words: numpy.ndarray, lookup: numpy.ndarray
) -> int:
    """The digit of the word data[start:end] (vocabulary word k has digit k + 1), or the unknown digit."""
    lowercase, mask = params[P_LOWER], params[P_SLOT_MASK]
    ends, slots = params[P_WORD_ENDS], params[P_WORD_SLOTS]
    slot = numpy.int64(word_hash(data, start, end, lowercase) & numpy.uint64(mask))
    while True:
        word = lookup[slots + slot]  # word index + 1, 0 for an empty slot
        if word == 0:
            return params[P_UNKNOWN]
        first, last = lookup[ends + word - 1], lookup[ends + word]
        if last - first == end - start:
            same = True
            for offset in range(end - start):
                if words[first + offset] != _lowered(data[start + offset], lowercase):
                    same = False
                    break
            if same:
                return word
        slot = (slot + 1) & mask


@numba.njit(cache=True, nogil=True)
def fill_word_slots(words: numpy.ndarray, ends: numpy.ndarray, slots: numpy.ndarray) -> None:
    """The words' hash table: linear probing, `slots` a power of two long, each slot word index + 1."""
    mask = len(slots) - 1
    for word in range(len(ends) - 1):
        slot = numpy.int64(word_hash(words, ends[word], ends[word + 1], 0) & numpy.uint64(mask))
        while slots[slot] != 0:
            slot = (slot + 1) & mask
        slots[slot] = word + 1


@numba.njit(cache=True, nogil=True)
def _ngram_ids(
    digits: numpy.ndarray, size: int, params: numpy.ndarray, lookup: numpy.ndarray, found: numpy.ndarray
) -> int:
    """Writes the vocabulary ids of the n-grams (lengths low..high) of digits[:size] to `found`; their count."""
    low, high, base = params[P_LOW], params[P_HIGH], params[P_BASE]
    shift, reach = numpy.uint64(params[P_SHIFT]), params[P_REACH]
    unigrams, keys, ids = params[P_UNIGRAMS], params[P_KEYS], params[P_IDS]
    count = 0
    if low <= 1 and high >= 1:
        for position in range(size):
            ngram_id = lookup[unigrams + digits[position]]
            if ngram_id:
                found[count] = ngram_id
                count += 1
    for length in range(max(low, 2), high + 1):
        for start in range(size - length + 1):
            key = numpy.int64(0)
            for place in range(length):
                key = key * base + digits[start + place]
            home = numpy.int64((numpy.uint64(key) * _MULTIPLIER) >> shift)
            stored = lookup[keys + home]
            if stored == key:
                found[count] = lookup[ids + home]
                count += 1
            elif stored >= 0:  # an occupied home slot: the key may lie in the window after it
                for slot in range(home + 1, home + reach + 1):
                    if lookup[keys + slot] == key:
                        found[count] = lookup[ids + slot]
                        count += 1
                        break
    return count


@numba.njit(cache=True, nogil=True)
def _forward(
    found: numpy.ndarray,
    count: int,
    params: numpy.ndarray,
    table: numpy.ndarray,
    dense: numpy.ndarray,
    sums: numpy.ndarray,
    pooled: numpy.ndarray,
    activation: numpy.ndarray,
    row: numpy.ndarray,
) -> None:
    """The graph's arithmetic on one text's n-gram ids: `row` gets its logits, then its
    probabilities. `dense` holds the table's scale, then the hidden weights (width x
    units), their biases, the output weights transposed (labels x units), their biases; `sums`,
    `pooled` and `activation` are scratch rows (width, width, units)."""
    width, units, labels = params[P_WIDTH], params[P_UNITS], params[P_LABELS]
    zero, scale = params[P_ZERO], dense[0]
    hidden_at = 1
    hidden_bias_at = hidden_at + width * units
    output_at = hidden_bias_at + units
    output_bias_at = output_at + units * labels
    if count == 0:  # the graph gets one padding id (row 0, the zero point: it adds nothing)
        found[0] = 0
    sums[:] = 0
    for position in range(max(count, 1)):
        ngram_id = found[position]
        for column in range(width):
            sums[column] += numpy.int32(table[ngram_id, column]) - zero
    divisor = numpy.float32(max(count, 1))
    for column in range(width):
        pooled[column] = (numpy.float32(sums[column]) * scale) / divisor
    # every dot product is summed from 0.0 in index order, one fixed order, so one answer anywhere;
    # the hidden layer column by column, each column's weights a contiguous run (vectorized)
    activation[:] = 0.0
    for column in range(width):
        weights = dense[hidden_at + column * units : hidden_at + (column + 1) * units]
        value = pooled[column]
        for unit in range(units):
            activation[unit] += value * weights[unit]
    for unit in range(units):
        total = activation[unit] + dense[hidden_bias_at + unit]
        activation[unit] = total if total > 0 else numpy.float32(0.0)
    top = numpy.float32(-numpy.inf)
    for label in range(labels):
        total = numpy.float32(0.0)
        weights = output_at + label * units
        for unit in range(units):
            total += activation[unit] * dense[weights + unit]
        row[label] = total + dense[output_bias_at + label]
        top = max(top, row[label])
    norm = numpy.float32(0.0)
    for label in range(labels):
        row[labels + label] = numpy.exp(row[label] - top)
        norm += row[labels + label]
    for label in range(labels):
        row[labels + label] /= norm


@numba.njit(cache=True, nogil=True)
def classify_bytes(
    data: numpy.ndarray,
    params: numpy.ndarray,
    words: numpy.ndarray,
    lookup: numpy.ndarray,
    table: numpy.ndarray,
    dense: numpy.ndarray,
    scores: numpy.ndarray,
    counts: numpy.ndarray,
) -> None:
    """Each text of `data` (bytes, texts separated by TEXT_BREAK) -> its row of `scores` (logits,
    then probabilities) and its n-gram count in `counts`."""
    size = len(data)
    digits = numpy.empty(size // 2 + 1, numpy.int64)  # a token is at least 2 bytes and a separator
    found = numpy.empty(4 * (size // 2 + 1), numpy.int64)
    sums = numpy.empty(params[P_WIDTH], numpy.int32)
    pooled = numpy.empty(params[P_WIDTH], numpy.float32)
    activation = numpy.empty(params[P_UNITS], numpy.float32)
    text, tokens, start = 0, 0, -1
    for position in range(size + 1):
        byte = data[position] if position < size else TEXT_BREAK
        if byte != TEXT_BREAK and _is_word_byte(byte):
            if start < 0:
                start = position
            continue
        if start >= 0:
            if position - start >= 2:
                digits[tokens] = _word_digit(data, start, position, params, words, lookup)
                tokens += 1
            start = -1
        if byte == TEXT_BREAK:
            count = _ngram_ids(digits, tokens, params, lookup, found)
            _forward(found, count, params, table, dense, sums, pooled, activation, scores[text])
            counts[text] = count
            text += 1
            tokens = 0
