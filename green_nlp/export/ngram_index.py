"""Give an exported n-gram DAN folder the index of its n-gram list (a faster start):

    python -m green_nlp.export.ngram_index FOLDER

Writes `ngrams.index.npz` from the folder's `ngrams.txt` (`green_nlp.runtime.ngram_index`), names
it in `green_model.json` ("ngrams.index") and rewrites the recorded sha256s. Folders exported by
this version already have it; the runtime reads a folder without it as before, only slower to start.
"""

import argparse
import json
from pathlib import Path
from typing import Any

from green_nlp.runtime.classifier import read_ngrams
from green_nlp.runtime.folder_files import META_FILE, inside, sha256_file
from green_nlp.runtime.model_folder import record_file_hashes
from green_nlp.runtime.ngram_index import INDEX_FILE, INDEX_VERSION, NgramIndex


def write_index(folder: Path, list_path: Path) -> dict[str, Any]:
    """`ngrams.index.npz` in `folder` from the n-gram list at `list_path`; returns the metadata entry
    ("ngrams.index") that names it."""
    NgramIndex.from_ngrams(read_ngrams(list_path)).write(Path(folder) / INDEX_FILE, sha256_file(list_path))
    return {"file": INDEX_FILE, "version": INDEX_VERSION}


def add_to_folder(folder: Path) -> dict[str, Any]:
    """Write the index into a classifier folder and name it in its metadata (hashes rewritten)."""
    folder = Path(folder)
    meta_path = folder / META_FILE
    text = meta_path.read_text(encoding="utf-8")
    meta = json.loads(text)
    ngram_meta = meta.get("ngrams")
    if meta.get("family") != "classifier" or not isinstance(ngram_meta, dict):
        raise ValueError(f"{folder}: not an n-gram DAN folder (family classifier with an n-gram list)")
    source = inside(folder, "ngrams.file", ngram_meta.get("file"))
    count = len(read_ngrams(source))
    if count != int(ngram_meta.get("count", -1)):
        raise ValueError(f"{folder}: {count:,} n-grams in the list, the metadata says {ngram_meta.get('count')}")
    ngram_meta["index"] = write_index(folder, source)
    indent = 2 if text.startswith("{\n  ") else 1
    meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=indent) + "\n", encoding="utf-8")
    card = (meta.get("card") or {}).get("file")
    if card:
        note_in_card(inside(folder, "card.file", card), folder)
    record_file_hashes(folder)
    return ngram_meta["index"]


CARD_SECTION = "## Added after the build"


def note_in_card(card: Path, folder: Path) -> None:
    """Say in the model card that the index came after the build, with its size and the folder's
    (the card's own figures were measured without it); an earlier such note is replaced."""
    if not card.is_file():
        return
    text = card.read_text(encoding="utf-8")
    text = text.split(f"\n{CARD_SECTION}\n")[0].rstrip("\n") + "\n"
    index_mb = (folder / INDEX_FILE).stat().st_size / 1e6
    note = (
        f"\n{CARD_SECTION}\n\n`{INDEX_FILE}` ({index_mb:.1f} MB, `python -m green_nlp.export.ngram_index`): the "
        "n-gram list numbered, so the runtime starts without numbering it (the figures above were measured "
        "without it; classifications are the same). With it the folder is "
    )
    card.write_text(text + note + "{size}.\n", encoding="utf-8")  # the size counts the note itself
    size = sum(path.stat().st_size for path in folder.iterdir() if path.is_file())
    card.write_text(text + note + f"{size / 1e6:.1f} MB.\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m green_nlp.export.ngram_index", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("folder", type=Path, help="an exported n-gram DAN folder")
    args = parser.parse_args()
    try:
        add_to_folder(args.folder)
    except (OSError, ValueError) as error:  # a wrong or unreadable folder: say so, not a traceback
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    print(f"{args.folder}: {INDEX_FILE} written")


if __name__ == "__main__":
    main()
