"""Put a shipped folder's size as it is now into its card's `folder size` row.

    python scripts/card_folder_size.py [NAME ...]     # default: every folder under pretrained/

The card's figures are measured when `scripts/build_pretrained.py` builds the folder; later steps
that change its files (the parser's graph split at the character encoder and at the lemma head, the
DAN's n-gram index) say so in the card's own sections but left the metrics table's `folder size` at
the size as built, which `green_model.json` (and `green-nlp serve`'s model list) repeats. This
measures the folder, rewrites that row, copies the card into `green_model.json` again and records
the hashes, until the size no longer moves (the card and metadata are part of the folder); run it
after editing a card by hand too, so the recorded hash is the card's.
"""

import argparse
import json
import re
from pathlib import Path

from pretrained_common import PRETRAINED, folder_bytes

from green_nlp.export.common import read_model_card
from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.model_folder import rewrite_meta

CARD = "README.md"
ROW = re.compile(r"^\| folder size \| [0-9.]+ MB \|$", flags=re.MULTILINE)


def size_row(folder: Path) -> str:
    return f"| folder size | {folder_bytes(folder) / 1e6:.1f} MB |"


def refresh(folder: Path) -> str:
    """Rewrite the card's row, its copy in the metadata and the hashes (also after any other edit of
    the card); the row written."""
    card = folder / CARD
    for _ in range(3):  # the rewrite changes the card's and metadata's bytes: at most once more
        row = size_row(folder)
        text = card.read_text(encoding="utf-8")
        if len(ROW.findall(text)) != 1:
            raise SystemExit(f"{card}: expected one '| folder size | X MB |' row in the metrics table")
        card.write_text(ROW.sub(row, text), encoding="utf-8")
        meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
        meta["card"] = read_model_card(card)
        rewrite_meta(folder, meta)  # in the file's own indentation, with the card's new hash
        if size_row(folder) == row:
            return row
    raise SystemExit(f"{folder}: the size kept moving")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="folders under pretrained/ (default: all)")
    args = parser.parse_args()
    names = args.names or sorted(path.name for path in PRETRAINED.iterdir() if path.is_dir())
    for name in names:
        print(f"{name}: {refresh(PRETRAINED / name)}")


if __name__ == "__main__":
    main()
