"""Adjust spaCy's English tokens to a treebank's word conventions, by rules learned from its
training file (`green_nlp.data.tokenization_rules` learns them; a model folder carries them).

spaCy's rule-based tokenizer and a UD treebank disagree on a few recurring patterns: EWT keeps
`e-mail`, `303-832-8160`, `!!` and `b/c` as one word where spaCy splits them, and splits `alot`,
`and/or` and `wanna` where spaCy does not. Every mismatch costs the parser a word and usually a
relation from raw text (on EWT dev, spaCy alone matched 98.3 % of the gold words). The rules are
plain data, so they stay torch- and spaCy-free here:

- `split`: a token written exactly so becomes these pieces (they concatenate to the token);
- `merge_runs`: punctuation characters whose repeats (`!!!`, `=====`) are one word;
- `merge_strings`: token sequences with no space between them whose text is one word;
- `merge_shapes`: the same by the tokens' shapes (`d - d - d`: digits, hyphens; `. ?`);
- `merge_headed`: by the first token's text and the others' shapes (`non|- a`), so that an unseen
  `non-Microsoft` follows what the treebank did with `non-human`;
- `merge_ascii_words`: adjacent pieces of ASCII letters and digits are one word (a Latin word or a
  number inside Chinese text, which spaCy's Chinese tokenizer cuts into characters);
- `multiword_suffixes` / `multiword_strings`: adjacent words, no space between, that the treebank
  writes as one multiword token (`don't` = `do` + `n't`, `Google's`, `gonna` = `gon` + `na`): by the
  last word (`n't`, `'s`) or by the whole text, lower-cased. They change no word; CoNLL-U output
  gets a range line over the words (`1-2 don't`).

Applied to one whitespace-free chunk at a time: splits first, then punctuation runs and ASCII words,
then the longest merge at each position, left to right.
"""

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Optional

FILE = "tokenizer_rules.json"
FORMAT = 1
MAX_MERGE = 7  # tokens in one merge; the learned merges are 2-5 tokens long


def token_shape(text: str) -> str:
    """A token's class for the shape rules: `d` digits, `a` letters, `m` letters and digits; other
    tokens (punctuation, symbols) are themselves, a run of one character written `c+`."""
    if text.isdigit():
        return "d"
    if text.isalpha():
        return "a"
    if text.isalnum():
        return "m"
    if len(text) > 1 and len(set(text)) == 1:
        return text[0] + "+"
    return text


def shape_key(texts: Sequence[str]) -> str:
    return " ".join(token_shape(text) for text in texts)


def headed_shape_key(texts: Sequence[str]) -> str:
    """The first token as written (lower-cased), then the others' shapes: `non|- a`, so that the
    treebank's `non-human`, `pre-owned` teach an unseen `non-Microsoft`."""
    return texts[0].lower() + "|" + shape_key(texts[1:])


def is_ascii_word_piece(text: str) -> bool:
    """A token of ASCII letters and digits only (`T`, `Tensor`, `2015`)."""
    return text.isascii() and text.isalnum()


def is_run_piece(text: str) -> bool:
    """A token made of one repeated punctuation character (`!`, `!!`, `=`)."""
    return len(set(text)) == 1 and not text[0].isalnum() and not text[0].isspace()


class TokenizationRules:
    def __init__(
        self,
        split: Optional[dict[str, list[str]]] = None,
        merge_runs: Iterable[str] = (),
        merge_strings: Iterable[str] = (),
        merge_shapes: Iterable[str] = (),
        merge_headed: Iterable[str] = (),
        multiword_suffixes: Iterable[str] = (),
        multiword_strings: Iterable[str] = (),
        merge_ascii_words: bool = False,
    ) -> None:
        self.split = dict(split or {})
        if not isinstance(merge_ascii_words, bool):
            raise ValueError(f"merge_ascii_words must be true or false, not {merge_ascii_words!r}")
        self.merge_ascii_words = merge_ascii_words
        for token, pieces in self.split.items():
            if "".join(pieces) != token or len(pieces) < 2:
                raise ValueError(f"split rule for {token!r}: pieces {pieces!r} must be 2+ and spell the token")
        self.merge_runs = frozenset(merge_runs)
        self.merge_strings = frozenset(merge_strings)
        self.merge_shapes = frozenset(merge_shapes)
        self.merge_headed = frozenset(merge_headed)
        self.multiword_suffixes = frozenset(multiword_suffixes)
        self.multiword_strings = frozenset(multiword_strings)
        # how a merge can begin, from its first two tokens: a prefix of a merged text, a shape rule's
        # first two shapes, a headed rule's head and next shape; most pairs of tokens are none of these
        self._merge_prefixes = frozenset(s[:k] for s in self.merge_strings for k in range(2, len(s) + 1))
        self._shape_pairs = frozenset(tuple(key.split(" ")[:2]) for key in self.merge_shapes)
        # (a head may itself hold "|", as may a shape: every "|" of a key is taken as the boundary once)
        self._headed_pairs = frozenset(
            (key[:bar], key[bar + 1 :].split(" ", 1)[0])
            for key in self.merge_headed
            for bar in range(len(key))
            if key[bar] == "|"
        )
        # the most tokens a shape rule covers (a headed key: its head, then one shape per token after
        # it): longer spans need no shape key
        self._longest_shape = max(
            [key.count(" ") + 1 for key in self.merge_shapes] + [key.count(" ") + 2 for key in self.merge_headed],
            default=0,
        )
        # what a word must be to start a multiword string: a proper prefix of one
        self._string_prefixes = frozenset(s[:k] for s in self.multiword_strings for k in range(1, len(s)))

    def __len__(self) -> int:
        kinds = (self.split, self.merge_runs, self.merge_strings, self.merge_shapes, self.merge_headed)
        return (
            sum(map(len, kinds))
            + len(self.multiword_suffixes)
            + len(self.multiword_strings)
            + int(self.merge_ascii_words)
        )

    def chunk(self, tokens: Sequence[str]) -> list[str]:
        """The words of one chunk: `tokens` are spaCy's tokens of a text with no whitespace inside."""
        pieces: list[str] = []
        for token in tokens:
            pieces.extend(self.split.get(token, (token,)))
        pieces = self._merge_runs(pieces) if self.merge_runs else pieces
        pieces = _merge_ascii_words(pieces) if self.merge_ascii_words else pieces
        if len(pieces) < 2 or not (self.merge_strings or self.merge_shapes or self.merge_headed):
            return pieces
        words: list[str] = []
        shapes = [token_shape(piece) for piece in pieces]  # once per chunk, not once per span tried
        start = 0
        while start < len(pieces):
            end = self._longest_merge(pieces, shapes, start) if self._may_merge(pieces, shapes, start) else start + 1
            words.append("".join(pieces[start:end]))
            start = end
        return words

    def _merge_runs(self, pieces: list[str]) -> list[str]:
        merged: list[str] = []
        for piece in pieces:
            if (
                merged
                and is_run_piece(piece)
                and piece[0] in self.merge_runs
                and is_run_piece(merged[-1])
                and merged[-1][0] == piece[0]
            ):
                merged[-1] += piece
            else:
                merged.append(piece)
        return merged

    def _may_merge(self, pieces: Sequence[str], shapes: Sequence[str], start: int) -> bool:
        """Whether any merge could begin at `start`, from its first two pieces (a cheap test before
        `_longest_merge` tries every length)."""
        if start + 1 >= len(pieces):
            return False
        first, second = pieces[start], shapes[start + 1]
        return (
            first + pieces[start + 1] in self._merge_prefixes
            or (shapes[start], second) in self._shape_pairs
            or (first.lower(), second) in self._headed_pairs
        )

    def _longest_merge(self, pieces: Sequence[str], shapes: Sequence[str], start: int) -> int:
        """The end of the longest merge starting at `start` (`start + 1`: none); `shapes` are the
        pieces' `token_shape`s."""
        for end in range(min(len(pieces), start + MAX_MERGE), start + 1, -1):
            if "".join(pieces[start:end]) in self.merge_strings:
                return end
            if end - start > self._longest_shape:
                continue
            tail = " ".join(shapes[start + 1 : end])
            if (
                shapes[start] + " " + tail in self.merge_shapes
                or pieces[start].lower() + "|" + tail in self.merge_headed
            ):
                return end
        return start + 1

    def words(self, tokens: Sequence[tuple[str, bool]]) -> list[str]:
        """Words from (token text, whitespace follows) pairs, in order; whitespace tokens dropped."""
        words: list[str] = []
        chunk: list[str] = []
        split = self.split
        for text, spaced in tokens:
            if not text or text.isspace():  # a whitespace token ends a chunk
                if chunk:
                    words.extend(self.chunk(chunk))
                    chunk = []
            elif spaced and not chunk and text not in split:  # most tokens: a word alone between spaces
                words.append(text)
            else:
                chunk.append(text)
                if spaced:
                    words.extend(self.chunk(chunk))
                    chunk = []
        if chunk:
            words.extend(self.chunk(chunk))
        return words

    def is_multiword(self, words: Sequence[str]) -> bool:
        """Whether these adjacent words (no space between them) make one multiword token."""
        if len(words) == 2 and words[1].lower() in self.multiword_suffixes:
            return True
        return "".join(words).lower() in self.multiword_strings

    def multiword_tokens(self, text: str, words: Sequence[str]) -> list[tuple[int, int]]:
        """(first, last) 0-based indices of the words that make each multiword token: 2 or 3 adjacent
        words written with nothing between them in `text` (none where the words do not spell it)."""
        if not (self.multiword_suffixes or self.multiword_strings) or len(words) < 2:
            return []
        lowered = [word.lower() for word in words]
        suffixes, strings, prefixes = self.multiword_suffixes, self.multiword_strings, self._string_prefixes
        # one comprehension, no call per word (that was most of this method's time): a suffix word next,
        # or this word and the next one or two spelling a multiword string
        candidates = [
            i
            for i, (first, second, third) in enumerate(zip(lowered, lowered[1:], lowered[2:] + [""]))
            if second in suffixes
            or (first in prefixes and ((pair := first + second) in strings or (third and pair + third in strings)))
        ]
        if not candidates:  # most sentences: no need to find where the words are
            return []
        ends, starts, position = [], [], 0
        for word in words:
            start = text.find(word, position)
            if start < 0:
                return []
            position = start + len(word)
            starts.append(start)
            ends.append(position)
        found: list[tuple[int, int]] = []
        taken = -1
        for i in candidates:
            if i <= taken:
                continue
            for last in (i + 2, i + 1):
                joined = last < len(words) and all(ends[k] == starts[k + 1] for k in range(i, last))
                if joined and self.is_multiword(words[i : last + 1]):
                    found.append((i, last))
                    taken = last
                    break
        return found

    def to_json(self, source: str, figures: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        # `merge_ascii_words` only where set: rules learnt without it keep the bytes (and sha256) they had
        ascii_words = {"merge_ascii_words": True} if self.merge_ascii_words else {}
        return {
            "format": FORMAT,
            "source": source,
            "figures": figures or {},
            "split": dict(sorted(self.split.items())),
            "merge_runs": sorted(self.merge_runs),
            "merge_strings": sorted(self.merge_strings),
            "merge_shapes": sorted(self.merge_shapes),
            "merge_headed": sorted(self.merge_headed),
            "multiword_suffixes": sorted(self.multiword_suffixes),
            "multiword_strings": sorted(self.multiword_strings),
            **ascii_words,
        }

    @classmethod
    def from_json(cls, payload: Any, where: str) -> "TokenizationRules":
        if not isinstance(payload, dict) or payload.get("format") != FORMAT:
            raise ValueError(f"{where}: not tokenizer rules of format {FORMAT}")
        try:
            return cls(
                split={str(key): [str(piece) for piece in value] for key, value in payload.get("split", {}).items()},
                merge_runs=[str(char) for char in payload.get("merge_runs", [])],
                merge_strings=[str(text) for text in payload.get("merge_strings", [])],
                merge_shapes=[str(shape) for shape in payload.get("merge_shapes", [])],
                merge_headed=[str(shape) for shape in payload.get("merge_headed", [])],
                multiword_suffixes=[str(text) for text in payload.get("multiword_suffixes", [])],
                multiword_strings=[str(text) for text in payload.get("multiword_strings", [])],
                merge_ascii_words=payload.get("merge_ascii_words", False),
            )
        except (AttributeError, TypeError, ValueError) as error:
            raise ValueError(f"{where}: malformed tokenizer rules: {error}") from error

    @classmethod
    def read(cls, path: Path) -> "TokenizationRules":
        try:
            payload = json.loads(Path(path).read_text(encoding="utf-8"))
        except ValueError as error:
            raise ValueError(f"{path}: not JSON tokenizer rules: {error}") from error
        return cls.from_json(payload, str(path))


def _merge_ascii_words(pieces: list[str]) -> list[str]:
    merged: list[str] = []
    for piece in pieces:
        if merged and is_ascii_word_piece(piece) and is_ascii_word_piece(merged[-1]):
            merged[-1] += piece
        else:
            merged.append(piece)
    return merged


def from_folder(folder: Path, meta: dict[str, Any]) -> Optional[TokenizationRules]:
    """The rules an exported folder names under "tokenizer.rules" (None without them: spaCy's
    tokens as they are); their sha256 was checked when the folder was read."""
    from green_nlp.runtime.errors import ModelFolderError
    from green_nlp.runtime.folder_files import META_FILE, inside

    tokenizer = meta.get("tokenizer")
    entry = tokenizer.get("rules") if isinstance(tokenizer, dict) else None
    if entry is None:
        return None
    if not isinstance(entry, dict) or "file" not in entry:
        raise ModelFolderError(f"{folder}: {META_FILE} key tokenizer.rules must be an object with a 'file'")
    path = inside(folder, "tokenizer.rules.file", entry["file"])
    try:
        return TokenizationRules.read(path)
    except (OSError, ValueError) as error:
        raise ModelFolderError(f"{folder}: tokenizer rules unreadable: {error}") from error
