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

from typing import Union

import numba
import numpy

_MULTIPLIER = numpy.uint64(0x9E3779B97F4A7C15)  # NgramTable's Fibonacci hashing
_FNV_OFFSET = numpy.uint64(0xCBF29CE484222325)  # FNV-1a, 64 bits, for the words' hash table
_FNV_PRIME = numpy.uint64(0x100000001B3)
TEXT_BREAK = 1  # the byte between two texts of a batch

# positions in the `params` array
P_LOW, P_HIGH, P_BASE, P_SHIFT, P_REACH, P_ZERO, P_LOWER, P_UNKNOWN = range(8)
P_PAIRS, P_WORD_SLOTS, P_SLOT_MASK, P_FILTER, P_FILTER_SHIFT = range(8, 13)
P_WIDTH, P_UNITS, P_LABELS, P_TABLE_ROWS = range(13, 17)
PARAMS = 17  # the head of the `lookup` array
# a word slot: its word's hash; its digit, with its 1-gram id (0: none) above bit 32 (the slot is
# empty where both are 0); where the word's bytes start and end. One slot read gives all a word needs.
SLOT_FIELDS = 4
_LOW_HALF = (1 << 32) - 1
_FILTER_MULTIPLIER = numpy.uint64(0xC2B2AE3D27D4EB4F)  # another odd constant: a second, independent hash


@numba.njit(cache=True, nogil=True, inline="always")
def _lowered(byte: int, lowercase: int) -> int:
    return byte + 32 if lowercase and 65 <= byte <= 90 else byte


@numba.njit(cache=True, nogil=True, inline="always")
def _is_word_byte(byte: int) -> bool:
    """`\\w` on ASCII, and every byte of a non-ASCII character (`dan_numba` hands non-ASCII texts
    over already tokenized by the regex, tokens separated by spaces)."""
    return 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122 or byte == 95 or byte >= 128


@numba.njit(cache=True, nogil=True, inline="always")
def word_hash(data: Union[bytes, numpy.ndarray], start: int, end: int, lowercase: int) -> numpy.uint64:
    value = _FNV_OFFSET
    for position in range(start, end):
        value = (value ^ numpy.uint64(_lowered(data[position], lowercase))) * _FNV_PRIME
    return value


@numba.njit(cache=True, nogil=True, inline="always")
def _word_digit(
    data: bytes, start: int, end: int, params: numpy.ndarray, words: numpy.ndarray, lookup: numpy.ndarray
) -> int:
    """The digit of the word data[start:end] (vocabulary word k has digit k + 1) with its 1-gram id
    above bit 32, or the unknown digit. A slot holds its word's hash and span, so probing reads one
    slot and, for the slot with the same hash, the word's bytes to confirm it."""
    lowercase, mask, slots = params[P_LOWER], params[P_SLOT_MASK], params[P_WORD_SLOTS]
    hashed = word_hash(data, start, end, lowercase)
    slot = numpy.int64(hashed & numpy.uint64(mask))
    while True:
        at = slots + SLOT_FIELDS * slot
        digit = lookup[at + 1]
        if digit == 0:
            return params[P_UNKNOWN]
        first, last = lookup[at + 2], lookup[at + 3]
        if numpy.uint64(lookup[at]) == hashed and last - first == end - start:
            same = True
            for offset in range(end - start):
                if words[first + offset] != _lowered(data[start + offset], lowercase):
                    same = False
                    break
            if same:
                return digit
        slot = (slot + 1) & mask


@numba.njit(cache=True, nogil=True)
def fill_word_slots(
    words: numpy.ndarray, ends: numpy.ndarray, unigram_ids: numpy.ndarray, slots: numpy.ndarray
) -> None:
    """The words' hash table: linear probing over `len(slots) // SLOT_FIELDS` slots (a power of
    two), each (hash, digit + 1-gram id << 32, start, end) of a word of `words` (its bytes, word k
    from ends[k] to ends[k + 1]; its 1-gram id unigram_ids[k + 1], 0 for none)."""
    mask = len(slots) // SLOT_FIELDS - 1
    for word in range(len(ends) - 1):
        hashed = word_hash(words, ends[word], ends[word + 1], 0)
        slot = numpy.int64(hashed & numpy.uint64(mask))
        while slots[SLOT_FIELDS * slot + 1] != 0:
            slot = (slot + 1) & mask
        at = SLOT_FIELDS * slot
        slots[at] = numpy.int64(hashed)
        slots[at + 1] = (word + 1) | (unigram_ids[word + 1] << 32)
        slots[at + 2] = ends[word]
        slots[at + 3] = ends[word + 1]


@numba.njit(cache=True, nogil=True, inline="always")
def _filter_bit(key: numpy.int64, shift: numpy.uint64) -> numpy.uint64:
    return (numpy.uint64(key) * _FILTER_MULTIPLIER) >> shift


@numba.njit(cache=True, nogil=True)
def fill_filter(keys: numpy.ndarray, shift: int, bits: numpy.ndarray) -> None:
    """Sets the filter bit of every stored key (`keys` >= 0) in `bits` (int64 words)."""
    for key in keys:
        if key >= 0:
            bit = _filter_bit(key, numpy.uint64(shift))
            bits[bit >> numpy.uint64(6)] |= numpy.int64(1) << numpy.int64(bit & numpy.uint64(63))


@numba.njit(cache=True, nogil=True, inline="always")
def _ngram_ids(
    digits: numpy.ndarray, size: int, params: numpy.ndarray, lookup: numpy.ndarray, found: numpy.ndarray, count: int
) -> int:
    """Writes the vocabulary ids of the n-grams of 2 words or more (lengths up to high) of
    digits[:size] to `found` after its first `count` (the 1-grams, found with the words); the new count."""
    low, high, base = params[P_LOW], params[P_HIGH], params[P_BASE]
    shift, reach, pairs = numpy.uint64(params[P_SHIFT]), params[P_REACH], params[P_PAIRS]
    bits, bits_shift = params[P_FILTER], numpy.uint64(params[P_FILTER_SHIFT])
    for length in range(max(low, 2), high + 1):
        for start in range(size - length + 1):
            key = numpy.int64(0)
            for place in range(length):
                key = key * base + digits[start + place]
            # most candidate n-grams are not in the vocabulary: a bit filter (1 MB, cache-resident)
            # turns most of them away before the table (many MB) is read; it never turns a stored one away
            bit = _filter_bit(key, bits_shift)
            if not (lookup[bits + numpy.int64(bit >> numpy.uint64(6))] >> numpy.int64(bit & numpy.uint64(63))) & 1:
                continue
            # the table's slots as (key, id) pairs: a hit reads one cache line, not two
            home = numpy.int64((numpy.uint64(key) * _MULTIPLIER) >> shift)
            stored = lookup[pairs + 2 * home]
            if stored == key:
                found[count] = lookup[pairs + 2 * home + 1]
                count += 1
            elif stored >= 0:  # an occupied home slot: the key may lie in the window after it
                for slot in range(home + 1, home + reach + 1):
                    if lookup[pairs + 2 * slot] == key:
                        found[count] = lookup[pairs + 2 * slot + 1]
                        count += 1
                        break
    return count


@numba.njit(cache=True, nogil=True, inline="always")
def _forward(
    found: numpy.ndarray,
    count: int,
    zero: int,
    scale: numpy.float32,
    table: numpy.ndarray,
    hidden: numpy.ndarray,
    hidden_bias: numpy.ndarray,
    output: numpy.ndarray,
    output_bias: numpy.ndarray,
    sums: numpy.ndarray,
    pooled: numpy.ndarray,
    activation: numpy.ndarray,
    row: numpy.ndarray,
) -> None:
    """The graph's arithmetic on one text's n-gram ids: `row` gets its logits, then its
    probabilities. `hidden` is width x units, `output` labels x units (transposed, row by row as
    read); `sums`, `pooled` and `activation` are scratch rows (width, width, units). The sums are
    int64: the graph's int32 sums exactly for any text shorter than 14 million n-grams."""
    width, units = hidden.shape
    labels = output.shape[0]
    if count == 0:  # the graph gets one padding id (row 0, the zero point: it adds nothing)
        found[0] = 0
    sums[:] = 0
    for position in range(max(count, 1)):
        values = table[found[position]]
        for column in range(width):
            sums[column] += numpy.int64(values[column]) - zero
    divisor = numpy.float32(max(count, 1))
    for column in range(width):
        pooled[column] = (numpy.float32(sums[column]) * scale) / divisor
    # every dot product is summed in one fixed order, so one answer anywhere; the hidden layer
    # column by column, each column's weights a contiguous row (vectorized, same order per unit)
    activation[:] = 0.0
    for column in range(width):
        weights, value = hidden[column], pooled[column]
        for unit in range(units):
            activation[unit] += value * weights[unit]
    for unit in range(units):
        total = activation[unit] + hidden_bias[unit]
        activation[unit] = total if total > 0 else numpy.float32(0.0)
    top = numpy.float32(-numpy.inf)
    quads = units - units % 4
    for label in range(labels):
        # four running sums (units 0, 4, 8 ...; 1, 5, 9 ...; ...), added in one fixed order at the
        # end: four independent chains instead of one 200 additions long
        weights = output[label]
        first = second = third = fourth = numpy.float32(0.0)
        for unit in range(0, quads, 4):
            first += activation[unit] * weights[unit]
            second += activation[unit + 1] * weights[unit + 1]
            third += activation[unit + 2] * weights[unit + 2]
            fourth += activation[unit + 3] * weights[unit + 3]
        for unit in range(quads, units):
            first += activation[unit] * weights[unit]
        row[label] = ((first + second) + (third + fourth)) + output_bias[label]
        top = max(top, row[label])
    norm = numpy.float32(0.0)
    for label in range(labels):
        row[labels + label] = numpy.exp(row[label] - top)
        norm += row[labels + label]
    for label in range(labels):
        row[labels + label] /= norm


@numba.njit(cache=True, nogil=True)
def classify_bytes(
    data: bytes, lookup: numpy.ndarray, blob: numpy.ndarray, dense: numpy.ndarray, scores: numpy.ndarray
) -> None:
    """Each text of `data` (UTF-8, texts separated by TEXT_BREAK) -> its row of `scores` (float64):
    logits, probabilities, its n-gram count and the index of its most probable label (the first of
    equals, as numpy's argmax). `lookup` (int64) starts with the PARAMS numbers; `blob` (uint8) is
    the n-gram table, row after row, then the words' bytes."""
    params = lookup[:PARAMS]
    width, units, labels = params[P_WIDTH], params[P_UNITS], params[P_LABELS]
    table = blob[: params[P_TABLE_ROWS] * width].reshape((params[P_TABLE_ROWS], width))
    words = blob[params[P_TABLE_ROWS] * width :]
    # `dense`: the table's scale, the hidden weights (width x units), their biases, the output
    # weights transposed (labels x units), their biases
    hidden_bias_at = 1 + width * units
    output_at = hidden_bias_at + units
    hidden = dense[1:hidden_bias_at].reshape((width, units))
    hidden_bias = dense[hidden_bias_at:output_at]
    output = dense[output_at : output_at + labels * units].reshape((labels, units))
    output_bias = dense[output_at + labels * units :]
    size = len(data)
    most = size // 2 + 1  # tokens: each at least 2 bytes and a separator
    whole = numpy.empty(5 * most + width, numpy.int64)  # one allocation: numba's each cost ~0.1 us
    digits, found, sums = whole[:most], whole[most : 5 * most], whole[5 * most :]
    floats = numpy.empty(width + units + 2 * labels, numpy.float32)
    pooled, activation, row = floats[:width], floats[width : width + units], floats[width + units :]
    unigrams = params[P_LOW] <= 1
    text, tokens, count, start = 0, 0, 0, -1
    for position in range(size + 1):
        byte = data[position] if position < size else TEXT_BREAK
        if byte != TEXT_BREAK and _is_word_byte(byte):
            if start < 0:
                start = position
            continue
        if start >= 0:
            if position - start >= 2:
                packed = _word_digit(data, start, position, params, words, lookup)
                digits[tokens] = packed & _LOW_HALF
                tokens += 1
                if unigrams and packed >> 32:
                    found[count] = packed >> 32
                    count += 1
            start = -1
        if byte == TEXT_BREAK:
            count = _ngram_ids(digits, tokens, params, lookup, found, count)
            _forward(
                found,
                count,
                params[P_ZERO],
                dense[0],
                table,
                hidden,
                hidden_bias,
                output,
                output_bias,
                sums,
                pooled,
                activation,
                row,
            )
            best = 0
            for label in range(2 * labels):
                scores[text, label] = row[label]
                if label >= labels and row[label] > row[labels + best]:
                    best = label - labels
            scores[text, 2 * labels] = count
            scores[text, 2 * labels + 1] = best
            text += 1
            tokens = count = 0
