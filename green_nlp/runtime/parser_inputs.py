"""Words (and UPOS) -> the padded id arrays the parser graph takes, indexed as AllenNLP indexes them.

Word ids follow the archive's `single_id` indexer (lower-cased when it lower-cased; unknown words
get the vocabulary's OOV id), character ids its `characters` indexer (padded to at least its
`min_padding_length` and the widest convolution), UPOS ids the `upos` namespace. 0 is padding
everywhere, as in AllenNLP.

Characters come in one of two layouts, as the folder's metadata says:
- one row per word place, `(batch, words, characters)` (folders exported before the unique layout);
- one row per distinct word of the batch, `(rows, characters)` with row 0 the padding word, and a
  `(batch, words)` index of each place's row (`index_input`). The character CNN then runs once per
  distinct word, not once per place (a batch repeats its function words and punctuation many
  times). Each row is padded to the same width as in the per-place layout, so each word's vector
  is the same;
- a split folder's graph takes those rows' vectors (`vectors_input`) from its encoder graph, run
  only on words not met before (`character_vectors`).

Memory stays bounded whatever the text: the character encoder reads a word's first
`MAX_WORD_CHARACTERS` characters (the torch models the same, `green_nlp.nn.character_cap`; no
EWT word is that long), and `model_calls` cuts a batch whose words times width would pass
`CHARACTER_CELLS_PER_CALL` (one 50,000-character word among a batch's distinct words padded every
one of them to its width: gigabytes).
"""

from collections.abc import Callable, Sequence
from typing import Any, Optional

import numpy as np

WORD_CACHE_SIZE = 100_000  # words whose character ids are kept (a few MB at most)
MAX_WORD_CHARACTERS = 512  # characters of a word the character encoder reads (EWT's longest: 473)
# (words x character width) and (sentences x words) of one model call: at 100 filters the character
# CNN's output is about 100 MB at this bound, the arc scores 130 MB; an ordinary batch of 32
# sentences is 50-100 times below both
CHARACTER_CELLS_PER_CALL = 1 << 18
WORD_CELLS_PER_CALL = 1 << 15


def model_calls(sentences: Sequence[Sequence[str]]) -> list[range]:
    """Consecutive runs of `sentences` (a batch sorted by length), one model call each, every run
    within both budgets unless one sentence alone is over them; one run for an ordinary batch."""
    runs, start, words, widest, longest = [], 0, 0, 0, 0
    for i, sentence in enumerate(sentences):
        width = min(MAX_WORD_CHARACTERS, max(map(len, sentence), default=0))
        total, wide, long = words + len(sentence), max(widest, width), max(longest, len(sentence))
        if i > start and (total * wide > CHARACTER_CELLS_PER_CALL or (i + 1 - start) * long > WORD_CELLS_PER_CALL):
            runs.append(range(start, i))
            start, total, wide, long = i, len(sentence), width, len(sentence)
        words, widest, longest = total, wide, long
    runs.append(range(start, len(sentences)))
    return runs


class Vocab:
    """One exported vocabulary namespace: token -> id, unknown -> the OOV id."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.index = {token: i for i, token in enumerate(spec["vocabulary"])}
        self.oov = spec.get("oov_index")
        self.lowercase = bool(spec.get("lowercase", False))

    def __call__(self, token: str) -> int:
        key = token.lower() if self.lowercase else token
        found = self.index.get(key, self.oov)
        if found is None:
            raise ValueError(f"{key!r} is not in a vocabulary without an unknown-token entry")
        return found


class ParserInputs:
    """Builds the feed of one batch for the parser graph from its `inputs` metadata."""

    def __init__(self, inputs: dict[str, Any]) -> None:
        self.words = Vocab(inputs["words"])
        self.word_input = inputs["words"]["input"]
        chars = inputs.get("characters")
        self.chars = Vocab(chars) if chars else None
        self.char_input = chars["input"] if chars else None
        self.char_index_input: Optional[str] = chars.get("index_input") if chars else None
        self.min_chars = int(chars["min_padding_length"]) if chars else 0
        # a split folder (`export.character_split`): the graph takes the distinct words' vectors, which
        # `vectors` (the runtime's `CharacterVectors`) gives, instead of their characters
        split = chars is not None and chars.get("encoder") and self.char_index_input
        self.vectors_input: Optional[str] = chars["vectors_input"] if chars is not None and split else None
        self.vectors: Optional[Callable[[Sequence[str]], np.ndarray]] = None
        self._word_chars: dict[str, list[Any]] = {}  # word -> its character ids, the words seen lately
        upos = inputs.get("upos")
        self.upos = Vocab(upos) if upos else None
        self.upos_input = upos["input"] if upos else None

    @property
    def needs_upos(self) -> bool:
        return self.upos is not None

    def feed(
        self, sentences: Sequence[Sequence[str]], upos: Sequence[Optional[Sequence[str]]]
    ) -> dict[str, np.ndarray]:
        """{input name: int64 array} for a batch; `upos[i]` is sentence i's tags or None."""
        batch, longest = len(sentences), max(len(words) for words in sentences)
        word_ids = np.zeros((batch, longest), dtype=np.int64)
        for b, words in enumerate(sentences):
            word_ids[b, : len(words)] = [self.words(word) for word in words]
        feed = {self.word_input: word_ids}
        if self.vectors_input is not None:
            if self.vectors is None:
                raise ValueError(
                    "this parser's characters go through its encoder graph: load it with green_nlp.runtime.load"
                )
            assert self.char_index_input is not None  # `vectors_input` is set only with it
            words, feed[self.char_index_input] = self.distinct_words(sentences, longest)
            feed[self.vectors_input] = self.vectors(words)
        elif self.chars is not None and self.char_index_input is not None:
            feed[self.char_input], feed[self.char_index_input] = self._unique_char_ids(sentences, longest)
        elif self.chars is not None:
            feed[self.char_input] = self._char_ids(sentences, longest)
        if self.upos is not None:
            upos_ids = np.zeros((batch, longest), dtype=np.int64)
            for b, (words, tags) in enumerate(zip(sentences, upos)):
                if tags is None:
                    raise ValueError(
                        "this parser was trained with UPOS input; give it UPOS tags (parse_tokens with "
                        "upos=...), or use a model trained without them for raw text"
                    )
                if len(tags) != len(words):
                    raise ValueError(f"{len(tags)} UPOS tags for {len(words)} words")
                upos_ids[b, : len(tags)] = [self.upos(tag) for tag in tags]
            feed[self.upos_input] = upos_ids
        return feed

    def _chars_of(self, word: str) -> list[Any]:
        """A word's character ids (the OOV id may be None: a vocabulary without one), memoized: a text's
        frequent words recur, and indexing their characters one by one took 8 % of a parse."""
        ids = self._word_chars.get(word)
        if ids is None:
            assert self.chars is not None
            if len(self._word_chars) >= WORD_CACHE_SIZE:
                self._word_chars.clear()
            index, oov = self.chars.index, self.chars.oov
            text = word[:MAX_WORD_CHARACTERS]
            ids = [index.get(c, oov) for c in (text.lower() if self.chars.lowercase else text)]
            self._word_chars[word] = ids
        return ids

    def _char_ids(self, sentences: Sequence[Sequence[str]], longest: int) -> np.ndarray:
        """The per-place layout: each place's row of the distinct-word layout."""
        rows, index = self._unique_char_ids(sentences, longest)
        return rows[index]

    def _unique_char_ids(self, sentences: Sequence[Sequence[str]], longest: int) -> tuple[np.ndarray, np.ndarray]:
        """(character ids of each distinct word, row 0 the padding word; each place's row)."""
        words, index = self.distinct_words(sentences, longest)
        return self.char_id_rows(words), index

    @staticmethod
    def distinct_words(sentences: Sequence[Sequence[str]], longest: int) -> tuple[list[str], np.ndarray]:
        """(the batch's distinct words, first "" for the padding row; each place's row among them)."""
        rows: dict[str, int] = {"": 0}  # "" never is a word (the checks refuse it): the padding row
        index = np.zeros((len(sentences), longest), dtype=np.int64)
        for b, words in enumerate(sentences):
            index[b, : len(words)] = [rows.setdefault(word, len(rows)) for word in words]
        return list(rows), index

    def char_id_rows(self, words: Sequence[str], min_width: int = 0) -> np.ndarray:
        """(words, width) character ids, each row padded to the widest word, `min_padding_length`
        and `min_width`."""
        chars = [self._chars_of(word) for word in words]
        width = max([self.min_chars, min_width] + [len(word) for word in chars])
        char_ids = np.zeros((len(chars), width), dtype=np.int64)
        for row, word in enumerate(chars):
            char_ids[row, : len(word)] = word
        return char_ids
