"""An n-gram list in the numbered form the n-gram table is built from, and its load-ready file.

Why a file beside `ngrams.txt`: numbering the words of a 200,000-line list (split into half a
million words, each looked up in a dict) was most of a classifier's start, about 0.45 s of 1.06 s
on a slow core. `ngrams.index.npz` holds the numbers already: the distinct words in order of first
use (word k is digit k + 1), every n-gram's words as digits, n-gram after n-gram, and each n-gram's
length. It is numpy's `.npz` with plain arrays (read with `allow_pickle=False`), written from the
list by the exporter or by `python -m green_nlp.export.ngram_index FOLDER`, named in
`green_model.json` so that its sha256 is checked like every other file, and checked against the
n-gram count when read. `ngrams.txt` stays the readable list; a folder without the index, or with
one of another version, is built from it as before.
"""

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from pathlib import Path

import numpy

INDEX_FILE = "ngrams.index.npz"
INDEX_VERSION = 1
_KEYS = ("version", "source_sha256", "words", "digits", "lengths")


def _smallest(largest: int) -> type:
    """The smallest unsigned integer type that holds 0..largest."""
    return next(t for t in (numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64) if largest <= numpy.iinfo(t).max)


@dataclass(frozen=True)
class NgramIndex:
    """`words[k - 1]` has digit k; `digits` (int64) holds every n-gram's word digits in order,
    `lengths` (int64) each n-gram's number of words; `source_sha256` is the sha256 of the n-gram list
    it was built from, so that an index left behind by a changed list is caught ("" when built in
    memory)."""

    words: list[str]
    digits: numpy.ndarray
    lengths: numpy.ndarray
    source_sha256: str = ""

    def __len__(self) -> int:
        return len(self.lengths)

    @classmethod
    def from_ngrams(cls, ngrams: Sequence[str]) -> "NgramIndex":
        """Number the words of space-separated n-grams, in a few C-level passes (map, join, split):
        a Python loop over the n-grams cost several times as much."""
        all_words = " ".join(ngrams).split(" ") if ngrams else []
        numbered = {word: digit for digit, word in enumerate(dict.fromkeys(all_words), start=1)}
        digits = numpy.fromiter(map(numbered.__getitem__, all_words), dtype=numpy.int64, count=len(all_words))
        lengths = numpy.fromiter(map(str.count, ngrams, repeat(" ")), dtype=numpy.int64, count=len(ngrams)) + 1
        return cls(list(numbered), digits, lengths)

    def ngrams(self) -> list[str]:
        """Every n-gram as the list writes it, in order (the words put back in one join of the
        whole list, then split). About 0.3 s for SST-2's 200,000 n-grams on a slow core, against
        0.05 s to read them from the folder's list: the runtime reads the list while it is intact."""
        if not len(self.lengths):
            return []
        words = numpy.array(self.words, dtype=object)[self.digits - 1]
        separators = numpy.full(len(self.digits), " ", dtype=object)
        separators[numpy.cumsum(self.lengths) - 1] = "\n"
        return "".join(chain.from_iterable(zip(words.tolist(), separators.tolist()))).split("\n")[:-1]

    def ngram(self, position: int) -> str:
        """The n-gram at `position` (0-based) as the list writes it, for messages."""
        start = int(self.lengths[:position].sum())
        return " ".join(self.words[d - 1] for d in self.digits[start : start + int(self.lengths[position])].tolist())

    def write(self, path: Path, source_sha256: str) -> None:
        """The index as `.npz` (uncompressed: it loads in milliseconds; zipped it is a third smaller
        and several times slower to read), recording the sha256 of the list it numbers."""
        if any("\n" in word for word in self.words):
            raise ValueError("an n-gram word holds a line break: the index keeps words one per line")
        with open(path, "wb") as handle:  # a file object: numpy would add ".npz" to a name without it
            numpy.savez(
                handle,
                version=numpy.array(INDEX_VERSION, dtype=numpy.int64),
                source_sha256=numpy.frombuffer(source_sha256.encode("ascii"), dtype=numpy.uint8),
                words=numpy.frombuffer("\n".join(self.words).encode("utf-8"), dtype=numpy.uint8),
                digits=self.digits.astype(_smallest(len(self.words))),
                lengths=self.lengths.astype(_smallest(int(self.lengths.max(initial=1)))),
            )

    @classmethod
    def read(cls, path: Path, count: int) -> "NgramIndex":
        """The index at `path`, which must hold `count` n-grams; ValueError says what is wrong."""
        try:
            return cls._read(path, count)
        except (zipfile.BadZipFile, EOFError, KeyError) as error:  # a cut or damaged zip of arrays
            raise ValueError(f"is not a readable index of numpy arrays ({error})") from None
        except ValueError as error:
            if "allow_pickle" in str(error):  # numpy's advice to load it with pickle: never, here
                raise ValueError(
                    "holds pickled data, not the plain arrays an index holds (it is never unpickled)"
                ) from None
            raise

    @classmethod
    def _read(cls, path: Path, count: int) -> "NgramIndex":
        with numpy.load(path, allow_pickle=False) as arrays:
            missing = [key for key in _KEYS if key not in arrays.files]
            if missing:
                raise ValueError(f"has no {', '.join(missing)} array")
            version = int(arrays["version"])
            if version != INDEX_VERSION:
                raise ValueError(f"is index version {version}; this runtime reads version {INDEX_VERSION}")
            source_sha256 = arrays["source_sha256"].tobytes().decode("ascii", errors="replace")
            text = arrays["words"].tobytes().decode("utf-8")
            words = text.split("\n") if text else []
            digits = arrays["digits"].astype(numpy.int64)
            lengths = arrays["lengths"].astype(numpy.int64)
        if len(lengths) != count:
            raise ValueError(f"holds {len(lengths):,} n-grams, the metadata says {count:,}")
        if len(set(words)) != len(words) or not all(words):
            raise ValueError("lists a word twice, or an empty word")
        if (lengths < 1).any() or int(lengths.sum()) != len(digits):
            raise ValueError("has n-gram lengths that do not add up to its words")
        if len(digits) and (int(digits.min()) < 1 or int(digits.max()) > len(words)):
            raise ValueError("numbers a word it does not list")
        return cls(words, digits, lengths, source_sha256)
