"""Put a list of attested words (`green_nlp.runtime.lemma_choice`) into an exported parser folder:

    python -m green_nlp.export.attested_words FOLDER TRAIN.conllu [TEXTS.jsonl.gz | TEXTS.txt ...]

The words are every form and lemma of the treebank's training file and every word seen at least
`--min-count` times in the texts (JSON lines with a "text", gzipped or not, or plain lines, read
by the text-classification reader's `read_examples`). The
folder gets `attested_words.txt`, named in `green_model.json` with its sources and its sha256
recorded. The parser's graph must give its lemma head's best scripts (`lemma_rules_top`; exported
by this version), else the list would never be read.
"""

import argparse
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from green_nlp.dataset_readers import read_conllu
from green_nlp.dataset_readers.text_classification import read_examples
from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.lemma_choice import FILE, KEY, MIN_COUNT, AttestedWords
from green_nlp.runtime.model_folder import rewrite_meta


def treebank_words(path: Path) -> Iterator[str]:
    for sentence in read_conllu(path):
        yield from sentence.words
        yield from (lemma for lemma in sentence.lemmas or [] if lemma and lemma != "_")


def texts_of(path: Path) -> Iterator[str]:
    """The texts of a JSON-lines file (its "text" fields) or of a plain text file (its lines)."""
    json_lines = path.name.endswith((".jsonl", ".jsonl.gz"))
    return (example.text for example in read_examples(str(path), "jsonl" if json_lines else "lines"))


def build(train_file: Path, text_files: Sequence[Path], min_count: int = MIN_COUNT) -> AttestedWords:
    texts = (text for path in text_files for text in texts_of(path))
    return AttestedWords.from_sources(treebank_words(train_file), texts, min_count)


def add_to_folder(folder: Path, words: AttestedWords, sources: list[str]) -> dict[str, Any]:
    """Write the list into an exported parser folder and name it in its metadata (hashes rewritten)."""
    folder = Path(folder)
    meta_path = folder / META_FILE
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    outputs = meta.get("outputs") or {}
    if meta.get("family") != "parser" or not outputs.get("lemma_rules_top"):
        raise ValueError(
            f"{folder}: not a parser folder whose graph gives the lemma head's best scripts (lemma_rules_top); "
            "re-export it with this version"
        )
    words.write(folder / FILE)
    meta[KEY] = {"file": FILE, "words": len(words), "sources": sources}
    rewrite_meta(folder, meta)
    return meta[KEY]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="an exported parser folder")
    parser.add_argument("train_file", type=Path, help="the CoNLL-U file the parser was trained on")
    parser.add_argument("texts", type=Path, nargs="*", help="unlabelled texts whose frequent words count as attested")
    parser.add_argument("--min-count", type=int, default=MIN_COUNT)
    args = parser.parse_args()
    words = build(args.train_file, args.texts, args.min_count)
    sources = [args.train_file.name, *(path.name for path in args.texts)]
    add_to_folder(args.folder, words, sources)
    print(f"{args.folder}: {FILE} with {len(words):,} words")


if __name__ == "__main__":
    main()
