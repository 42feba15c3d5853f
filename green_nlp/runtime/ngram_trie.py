"""Exact n-gram -> vocabulary id lookup for a whole batch at once, in numpy.

Why not a dict of n-gram strings: building the ~60 n-gram strings of a sentence and probing a
dict of 10^5-10^6 strings costs far more than the DAN's embedding sum (in AllenNLP it is most of
the time per text). Here each word is looked up once (a small dict), and n-grams are integer keys
in a word trie: the node of an (n+1)-gram is found from its n-gram prefix's node and its last word
as `node * num_words + word`, with one `numpy.searchsorted` per n-gram length over the whole
batch (a bucketed hash table in numpy was tried: slower here, its table does not stay in cache).
A key is present only when the exact word sequence is a prefix of a vocabulary n-gram, so
the answer is the vocabulary's, with no hashing collisions.
"""

from collections.abc import Sequence
from typing import Optional

import numpy

UNKNOWN_WORD = -1
BOUNDARY = -2  # the word id of the token that separates two texts of a batch


class NgramTrie:
    """Vocabulary n-grams (space-separated words, id = `first_id` + position) as a word trie."""

    def __init__(self, ngrams: Sequence[str], first_id: int = 2, boundary_token: Optional[str] = None) -> None:
        self.words: dict[str, int] = {}
        for ngram in ngrams:
            for word in ngram.split(" "):
                if word not in self.words:
                    self.words[word] = len(self.words)
        self.num_words = max(1, len(self.words))
        children: dict[int, int] = {}
        # node ids: a word's id for 1-grams, then num_words + k for the k-th longer prefix
        node_vocab_id = [0] * len(self.words)
        self.max_n = 0
        for index, ngram in enumerate(ngrams):
            path = ngram.split(" ")
            self.max_n = max(self.max_n, len(path))
            node = self.words[path[0]]
            for word in path[1:]:
                key = node * self.num_words + self.words[word]
                child = children.get(key)
                if child is None:
                    child = children[key] = len(node_vocab_id)
                    node_vocab_id.append(0)
                node = child
            if node_vocab_id[node]:
                raise ValueError(f"n-gram {ngram!r} appears twice in the vocabulary")
            node_vocab_id[node] = first_id + index
        if len(node_vocab_id) * self.num_words >= 2**62:
            raise ValueError("n-gram vocabulary too large for 64-bit trie keys")
        # kept for `text_ids` (one text: Python beats numpy's per-call cost)
        self._children, self._node_vocab_id = children, node_vocab_id
        keys = numpy.fromiter(children.keys(), dtype=numpy.int64, count=len(children))
        nodes = numpy.fromiter(children.values(), dtype=numpy.int64, count=len(children))
        order = numpy.argsort(keys)
        # a sentinel above every real key, so searchsorted's answer is always a valid index
        self._keys = numpy.append(keys[order], numpy.iinfo(numpy.int64).max)
        self._nodes = numpy.append(nodes[order], -1)
        # indices -1 and -2 (no node) read the trailing zeros: "not in the vocabulary"
        self._vocab_id = numpy.append(numpy.asarray(node_vocab_id, dtype=numpy.int64), [0, 0])
        self._lookup = dict(self.words)
        if boundary_token is not None:
            if boundary_token in self.words:
                raise ValueError(f"the boundary token {boundary_token!r} is a vocabulary word")
            self._lookup[boundary_token] = BOUNDARY

    def word_ids(self, tokens: Sequence[str]) -> numpy.ndarray:
        """Word ids of `tokens`: `BOUNDARY` for the boundary token, `UNKNOWN_WORD` for words outside
        every vocabulary n-gram."""
        get = self._lookup.get
        return numpy.array([get(token, UNKNOWN_WORD) for token in tokens], dtype=numpy.int64)

    def lookup(self, word_ids: numpy.ndarray, low: int, high: int) -> list[tuple[numpy.ndarray, numpy.ndarray]]:
        """For each length n in [low, high] (in order): (start positions, vocabulary ids) of the
        n-grams of `word_ids` that are in the vocabulary. A negative word id (unknown word, text
        boundary) ends every n-gram that would cross it."""
        found: list[tuple[numpy.ndarray, numpy.ndarray]] = []
        nodes = word_ids  # 1-gram nodes are word ids; negative = no node
        for n in range(1, min(high, self.max_n) + 1):
            if n > 1:
                parents, last = nodes[:-1], word_ids[n - 1 :]
                if not len(parents):
                    break
                # only positions whose (n-1)-gram is a trie node and whose next word is known
                valid = numpy.flatnonzero((parents >= 0) & (last >= 0))
                keys = parents[valid] * self.num_words + last[valid]
                where = numpy.searchsorted(self._keys, keys)
                hit = self._keys[where] == keys
                nodes = numpy.full(len(parents), -1, dtype=numpy.int64)
                nodes[valid[hit]] = self._nodes[where[hit]]
            if n >= low:
                ids = self._vocab_id[nodes]
                starts = numpy.flatnonzero(ids)
                found.append((starts, ids[starts]))
        return found

    def text_ids(self, tokens: Sequence[str], low: int, high: int) -> list[int]:
        """The vocabulary ids of one text's n-grams with length in [low, high], 1-grams first, as
        `lookup` finds them; plain Python, cheaper than numpy's fixed cost per call for one text."""
        get, child, vocab_id, width = self.words.get, self._children.get, self._node_vocab_id, self.num_words
        words = [get(token, UNKNOWN_WORD) for token in tokens]
        nodes = words
        ids = [vocab_id[node] for node in nodes if node >= 0] if low == 1 else []
        for n in range(2, min(high, self.max_n) + 1):
            nodes = [
                child(parent * width + word, -1) if parent >= 0 and word >= 0 else -1
                for parent, word in zip(nodes, words[n - 1 :])
            ]
            if n >= low:
                ids += [vocab_id[node] for node in nodes if node >= 0]
        return [i for i in ids if i]
