"""The teacher-label cache: a teacher's logits for a corpus, written once and read by every
distillation run (caching is greener than running the teacher each epoch).

A JSON-lines file: a header line `{"teacher_cache": 1, "labels": [...], ...}` naming the teacher's
label order (and, with `label_names`, the teacher reader's raw-label -> name mapping, which the
students' readers must share), then one record per document, in input order:
`{"text": ..., "label": gold label as the input file writes it, or null, "logits": [...], "source": "file:line"}`.
Appending complete lines only (and dropping a torn last line on resume) makes it resumable.

A parser teacher's cache (`"kind": "parser"`, version 2) has the same layout: its header names the
teacher by its archive's sha256 (a rerun or a student reading the cache refuses another teacher's),
its label orders and how much it keeps; each record is one sentence of the raw text, split and
tokenized as the runtime does: `{"words": [...], "source": "file:line#sentence", "heads": [...],
"labels": [...], "upos": [...] or null, "top": "<base64>", "cut": [arc mass, label mass]}`.
`heads` / `labels` / `upos` are the teacher's 1-best tree (after its tree decoding) and tags, as
indices; `top` packs, little-endian, the top-k heads per word (int16, (n, k)) and their
probabilities (float16), the top-m labels at each of those heads (uint8, (n, k, m)) and their
probabilities (float16), and the top-m UPOS tags per word (uint8 / float16, (n, m)) where the teacher
tags; `cut` is the probability mass those top-k / top-m leave out, summed over the words (arc mass
per word; label mass per word at its best head), so the cost of k and m is measured, not guessed.
"""

import base64
import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

CACHE_VERSION = 1
PARSER_CACHE_VERSION = 2
PARSER_KIND = "parser"
# Header entries that must match for a rerun to continue a cache, with the value a missing one means.
_COMPARED: dict[str, Any] = {
    "labels": None,
    "label_names": None,
    "inputs": None,
    "shard": None,
    "max_examples_per_input": None,
    "every_nth": 1,
    "skip_per_input": 0,
    "overrides": {},
}


class TeacherCacheError(ValueError):
    """A malformed or mismatched cache; the message names the file (and line)."""


@dataclass
class CachedExample:
    text: str
    label: Optional[str]
    logits: list[float]
    source: str


def is_header(record: Any) -> bool:
    """Whether a parsed first line is a cache's header: an object with a `teacher_cache` key and no
    `text` (an example that merely mentions "teacher_cache" is data, not a header)."""
    return isinstance(record, dict) and "teacher_cache" in record and "text" not in record


def read_header(path: str) -> Optional[dict[str, Any]]:
    """The header of a cache file, or None when `path` is not a (non-empty) cache. A first line
    that cannot be read as JSON (bytes that are not UTF-8, an over-long number, deep nesting) is
    no header: the file's own reader then names what is wrong with it at its line."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.loads(handle.readline())
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return None
    return record if is_header(record) else None


def read_cache(path: str) -> Iterator[CachedExample]:
    """Stream the records of a cache (a torn last line, left by a killed run, is ignored)."""
    header = read_header(path)
    if header is None:
        raise TeacherCacheError(f"{path}:1: not a teacher cache (no header line)")
    size = len(header["labels"])
    with open(path, encoding="utf-8") as handle:
        handle.readline()
        for number, line in enumerate(handle, start=2):
            if not line.endswith("\n"):
                return
            try:
                record = json.loads(line)
                logits = [float(x) for x in record["logits"]]
                text = record["text"]
            except (KeyError, TypeError, ValueError) as error:  # a JSONDecodeError is a ValueError
                raise TeacherCacheError(f"{path}:{number}: malformed record ({error})") from error
            except RecursionError:
                raise TeacherCacheError(f"{path}:{number}: malformed record (JSON nested too deeply)") from None
            if len(logits) != size:
                raise TeacherCacheError(f"{path}:{number}: {len(logits)} logits, the header names {size} labels")
            yield CachedExample(text, record.get("label"), logits, record.get("source", f"{path}:{number}"))


def count_complete_records(path: str) -> int:
    """Records already written; truncates a torn last line so appending continues cleanly."""
    with open(path, "rb+") as handle:
        data = handle.read()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            handle.truncate(end)
    return max(0, data[:end].count(b"\n") - 1)


class CacheWriter:
    """Appends records, flushing every `flush_every` so a kill loses at most that many. An existing
    cache is continued only when its header agrees on every entry of `compared` (entry -> the value
    a missing one means)."""

    def __init__(
        self,
        path: str,
        header: dict[str, Any],
        flush_every: int = 64,
        compared: Optional[dict[str, Any]] = None,
        version: int = CACHE_VERSION,
    ) -> None:
        existing = read_header(path)
        if existing is not None:
            for key, default in (compared if compared is not None else _COMPARED).items():
                if existing.get(key, default) != header.get(key, default):
                    raise TeacherCacheError(
                        f"{path}: exists with a different {key} ({existing.get(key)!r}, now {header.get(key)!r}); "
                        "remove it or choose another --output"
                    )
            self.done = count_complete_records(path)
            self._handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 (held across appends; close() shuts it)
        else:
            self.done = 0
            self._handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 (held across appends; close() shuts it)
            self._handle.write(json.dumps({"teacher_cache": version, **header}) + "\n")
        self._pending = 0
        self._flush_every = flush_every

    def write(self, text: str, label: Optional[str], logits: list[float], source: str) -> None:
        record = {"text": text, "label": label, "logits": [round(float(x), 5) for x in logits], "source": source}
        self.write_record(record)

    def write_record(self, record: dict[str, Any]) -> None:
        self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.done += 1
        self._pending += 1
        if self._pending >= self._flush_every:
            self.flush()

    def flush(self) -> None:
        self._handle.flush()
        self._pending = 0

    def close(self) -> None:
        self._handle.close()


# ---------------------------------------------------------------- parser teachers
# Header entries a rerun must agree on to continue a parser cache (the teacher first).
PARSER_COMPARED: dict[str, Any] = {
    "kind": None,
    "teacher_sha256": None,
    "deprels": None,
    "upos": None,
    "top_k_heads": None,
    "top_k_labels": None,
    "inputs": None,
    "shard": None,
    "max_words": None,
    "max_documents_per_input": None,
    "overrides": {},
}


def file_sha256(path: str) -> str:
    """The fingerprint of a teacher archive."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class SilverTargets:
    """One silver sentence's stored teacher distributions (see the module's docstring): `heads`
    (n, k), `head_probs` (n, k), `labels` / `label_probs` (n, k, m), `upos` / `upos_probs` (n, m) or
    None; `deprels` / `upos_tags` name the indices (one tuple shared by a cache's sentences);
    `cache` names the file for messages."""

    heads: np.ndarray
    head_probs: np.ndarray
    labels: np.ndarray
    label_probs: np.ndarray
    upos: Optional[np.ndarray]
    upos_probs: Optional[np.ndarray]
    deprels: tuple[str, ...]
    upos_tags: Optional[tuple[str, ...]]
    cache: str = ""

    @property
    def length(self) -> int:
        return int(self.heads.shape[0])

    @staticmethod
    def pad(targets: Sequence["SilverTargets"], length: int) -> dict[str, Optional[np.ndarray]]:
        """The batch's arrays padded to `length` words (padding: index 0 with probability 0)."""
        out: dict[str, Optional[np.ndarray]] = {}
        names = ["heads", "head_probs", "labels", "label_probs"]
        if all(t.upos is not None for t in targets):
            names += ["upos", "upos_probs"]
        else:
            out["upos"] = out["upos_probs"] = None
        for name in names:
            first = getattr(targets[0], name)
            dtype = np.int64 if name in ("heads", "labels", "upos") else np.float32
            array = np.zeros((len(targets), length) + first.shape[1:], dtype=dtype)
            for b, target in enumerate(targets):
                value = getattr(target, name)
                array[b, : value.shape[0]] = value
            out[name] = array
        return out


def encode_top(
    heads: np.ndarray,
    head_probs: np.ndarray,
    labels: np.ndarray,
    label_probs: np.ndarray,
    upos: Optional[np.ndarray] = None,
    upos_probs: Optional[np.ndarray] = None,
) -> str:
    """Pack one sentence's top-k arrays (shapes as `SilverTargets`) into the record's `top` string."""
    parts = [
        heads.astype("<i2").tobytes(),
        head_probs.astype("<f2").tobytes(),
        labels.astype("u1").tobytes(),
        label_probs.astype("<f2").tobytes(),
    ]
    if upos is not None and upos_probs is not None:
        parts += [upos.astype("u1").tobytes(), upos_probs.astype("<f2").tobytes()]
    return base64.b64encode(b"".join(parts)).decode("ascii")


def decode_top(
    top: str, length: int, k: int, m: int, with_upos: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Optional[np.ndarray], Optional[np.ndarray]]:
    """The inverse of `encode_top`; ValueError when the size does not fit the shapes."""
    data = base64.b64decode(top.encode("ascii"), validate=True)
    sizes = [("<i2", (length, k)), ("<f2", (length, k)), ("u1", (length, k, m)), ("<f2", (length, k, m))]
    if with_upos:
        sizes += [("u1", (length, m)), ("<f2", (length, m))]
    expected = sum(np.dtype(d).itemsize * int(np.prod(shape)) for d, shape in sizes)
    if len(data) != expected:
        raise ValueError(f"'top' holds {len(data)} bytes, {expected} expected for {length} words, k={k}, m={m}")
    arrays: list[np.ndarray] = []
    offset = 0
    for dtype, shape in sizes:
        count = int(np.prod(shape))
        arrays.append(np.frombuffer(data, dtype=dtype, count=count, offset=offset).reshape(shape))
        offset += count * np.dtype(dtype).itemsize
    heads, head_probs, labels, label_probs = (
        arrays[0].astype(np.int64),
        arrays[1].astype(np.float32),
        arrays[2].astype(np.int64),
        arrays[3].astype(np.float32),
    )
    if with_upos:
        return heads, head_probs, labels, label_probs, arrays[4].astype(np.int64), arrays[5].astype(np.float32)
    return heads, head_probs, labels, label_probs, None, None


@dataclass
class SilverSentence:
    """A parsed sentence of a parser cache: words, the 1-best tree and tags (as names), the targets."""

    words: list[str]
    heads: list[int]
    deprels: list[str]
    upos: Optional[list[str]]
    targets: SilverTargets
    source: str


def read_parser_header(path: str, teacher_sha256: Optional[str] = None) -> dict[str, Any]:
    """The header of a parser cache; refuses anything else, and another teacher's cache when
    `teacher_sha256` is given."""
    header = read_header(path)
    if header is None:
        raise TeacherCacheError(f"{path}:1: not a teacher cache (no header line)")
    if header.get("kind") != PARSER_KIND:
        raise TeacherCacheError(f"{path}:1: a {header.get('kind', 'classifier')} teacher's cache, not a parser's")
    if teacher_sha256 is not None and header.get("teacher_sha256") != teacher_sha256:
        raise TeacherCacheError(
            f"{path}:1: written by another teacher (archive sha256 {header.get('teacher_sha256')}, "
            f"expected {teacher_sha256}); relabel the text with this teacher"
        )
    return header


def read_parser_cache(path: str, teacher_sha256: Optional[str] = None) -> Iterator[SilverSentence]:
    """Stream the sentences of a parser cache (a torn last line, left by a killed run, is ignored)."""
    header = read_parser_header(path, teacher_sha256)
    deprels = tuple(header["deprels"])
    upos_tags = tuple(header["upos"]) if header.get("upos") else None
    k, m = int(header["top_k_heads"]), int(header["top_k_labels"])
    with open(path, encoding="utf-8") as handle:
        handle.readline()
        for number, line in enumerate(handle, start=2):
            if not line.endswith("\n"):
                return
            try:
                record = json.loads(line)
                words = [str(w) for w in record["words"]]
                n = len(words)
                arrays = decode_top(record["top"], n, k, m, upos_tags is not None)
                heads, labels = [int(h) for h in record["heads"]], [int(x) for x in record["labels"]]
                upos = [int(x) for x in record["upos"]] if upos_tags is not None else None
                if len(heads) != n or len(labels) != n or (upos is not None and len(upos) != n):
                    raise ValueError(f"{n} words but {len(heads)} heads / {len(labels)} labels")
                if not all(0 <= h <= n for h in heads) or int(arrays[0].max(initial=0)) > n:
                    raise ValueError(f"a head outside 0..{n}")
                deprel_names = [deprels[i] for i in labels]
                upos_names = [upos_tags[i] for i in upos] if upos is not None and upos_tags is not None else None
            except (KeyError, TypeError, ValueError, IndexError) as error:  # a JSONDecodeError is a ValueError
                raise TeacherCacheError(f"{path}:{number}: malformed record ({error})") from error
            except RecursionError:
                raise TeacherCacheError(f"{path}:{number}: malformed record (JSON nested too deeply)") from None
            targets = SilverTargets(*arrays, deprels=deprels, upos_tags=upos_tags, cache=path)
            yield SilverSentence(
                words, heads, deprel_names, upos_names, targets, record.get("source", f"{path}:{number}")
            )
