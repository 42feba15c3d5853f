"""The files a model folder's `green_model.json` names: kept inside the folder and checked by sha256.

A folder can come from anyone, and its JSON can name any path ("../../etc/passwd", or a symlink
that points out). Every name is resolved (symlinks followed) and must land inside the folder
before anything opens it. The recorded hashes catch a graph or n-gram list that was cut short,
damaged or swapped after export; they do not make a folder from an untrusted source trustworthy
(whoever can change a file can change the JSON too), they make a changed file fail loudly.
"""

import hashlib
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from green_nlp.runtime.errors import ModelFolderError

logger = logging.getLogger(__name__)

META_FILE = "green_model.json"
HASHES_KEY = "sha256"  # file name (relative to the folder) -> hex sha256, beside "files"
_CHUNK = 1 << 20
_warned: set[str] = set()


def named_files(meta: dict[str, Any]) -> list[tuple[str, Any]]:
    """(dotted key, value) of every file name in the metadata: each entry of a "files" object and
    every "file" key, at any depth ("files.int8", "ngrams.file", "card.file", ...)."""
    found: list[tuple[str, Any]] = []

    def walk(node: dict[str, Any], prefix: str) -> None:
        for key, value in node.items():
            dotted = f"{prefix}{key}"
            if key == HASHES_KEY and not prefix:
                continue
            if key == "files" and isinstance(value, dict):
                found.extend((f"{dotted}.{name}", entry) for name, entry in value.items())
            elif key == "file":
                if value is not None:  # a card without a file of its own
                    found.append((dotted, value))
            elif isinstance(value, dict):
                walk(value, f"{dotted}.")

    walk(meta, "")
    return found


def inside(folder: Path, key: str, name: Any) -> Path:
    """`folder / name` resolved (symlinks followed), refused unless it stays inside the folder."""
    if not isinstance(name, str) or not name.strip():
        raise ModelFolderError(f"{folder}: {META_FILE} key {key} must be a file name in the folder, got {name!r}")
    try:
        root = Path(folder).resolve()
        path = (root / name).resolve()
    except (OSError, ValueError, RuntimeError) as error:  # a NUL byte, a symlink loop
        raise ModelFolderError(
            f"{folder}: {META_FILE} key {key} names {name!r}, which cannot be resolved: {error}"
        ) from None
    if path == root or not path.is_relative_to(root):
        raise ModelFolderError(
            f"{folder}: {META_FILE} key {key} names {name!r}, which resolves outside the folder "
            f"(to {path}); a model folder's files must stay inside it"
        )
    return path


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _relative(folder: Path, path: Path) -> str:
    return path.relative_to(Path(folder).resolve()).as_posix()


def record_hashes(folder: Path, meta: dict[str, Any], files: Iterable[tuple[str, Path]]) -> None:
    """Set `meta["sha256"]` to the digest of each (key, resolved path), keyed by its folder-relative name."""
    meta[HASHES_KEY] = {_relative(folder, path): sha256_file(path) for _, path in sorted(files, key=lambda f: f[1])}


def check_hashes(folder: Path, meta: dict[str, Any], files: Iterable[tuple[str, Path]]) -> None:
    """Refuse a file whose sha256 differs from the recorded one, or that has none recorded.

    A folder with no "sha256" map at all was exported before green_nlp recorded hashes: it loads,
    with one warning per folder and process saying how to record them.
    """
    recorded = meta.get(HASHES_KEY)
    if recorded is None:
        if str(folder) not in _warned:
            _warned.add(str(folder))
            logger.warning(
                "%s: %s records no sha256 for its files (exported before green_nlp recorded them), so a "
                "changed file would go unnoticed; re-export it, or record them with "
                "green_nlp.runtime.model_folder.record_file_hashes(folder)",
                folder,
                META_FILE,
            )
        return
    if not isinstance(recorded, dict):
        raise ModelFolderError(f"{folder}: {META_FILE} key {HASHES_KEY} must map file names to sha256 digests")
    for key, path in files:
        name = _relative(folder, path)
        expected = recorded.get(name)
        if not isinstance(expected, str):
            raise ModelFolderError(
                f"{folder}: {META_FILE} records no sha256 for {name} ({key}); a file without one is not loaded "
                "(record them with green_nlp.runtime.model_folder.record_file_hashes)"
            )
        if sha256_file(path) != expected.lower():
            raise ModelFolderError(
                f"{folder}: {name} does not match the sha256 recorded in {META_FILE} (changed, cut short or "
                "damaged since export); restore the file or re-export the model"
            )
