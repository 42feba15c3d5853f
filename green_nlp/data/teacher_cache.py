"""The teacher-label cache: a teacher's logits for a corpus, written once and read by every
distillation run (caching is greener than running the teacher each epoch).

A JSON-lines file: a header line `{"teacher_cache": 1, "labels": [...], ...}` naming the teacher's
label order (and, with `label_names`, the teacher reader's raw-label -> name mapping, which the
students' readers must share), then one record per document, in input order:
`{"text": ..., "label": gold label as the input file writes it, or null, "logits": [...], "source": "file:line"}`.
Appending complete lines only (and dropping a torn last line on resume) makes it resumable.
"""

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional

CACHE_VERSION = 1
# Header entries that must match for a rerun to continue a cache, with the value a missing one means.
_COMPARED: Dict[str, Any] = {
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
    logits: List[float]
    source: str


def is_header(record: Any) -> bool:
    return isinstance(record, dict) and "teacher_cache" in record


def read_header(path: str) -> Optional[Dict[str, Any]]:
    """The header of a cache file, or None when `path` is not a (non-empty) cache."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    with open(path, encoding="utf-8") as handle:
        first = handle.readline()
    try:
        record = json.loads(first)
    except json.JSONDecodeError:
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
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
                raise TeacherCacheError(f"{path}:{number}: malformed record ({error})") from error
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
    """Appends records, flushing every `flush_every` so a kill loses at most that many."""

    def __init__(self, path: str, header: Dict[str, Any], flush_every: int = 64) -> None:
        existing = read_header(path)
        if existing is not None:
            for key, default in _COMPARED.items():
                if existing.get(key, default) != header.get(key, default):
                    raise TeacherCacheError(
                        f"{path}: exists with a different {key} ({existing.get(key)!r}, now {header.get(key)!r}); "
                        "remove it or choose another --output"
                    )
            self.done = count_complete_records(path)
            self._handle = open(path, "a", encoding="utf-8")
        else:
            self.done = 0
            self._handle = open(path, "w", encoding="utf-8")
            self._handle.write(json.dumps({"teacher_cache": CACHE_VERSION, **header}) + "\n")
        self._pending = 0
        self._flush_every = flush_every

    def write(self, text: str, label: Optional[str], logits: List[float], source: str) -> None:
        record = {"text": text, "label": label, "logits": [round(float(x), 5) for x in logits], "source": source}
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
