"""Put a (form, UPOS) -> lemma dictionary (`green_nlp.runtime.lemma_lexicon`) into a parser archive or
an exported folder, so the predictor and the runtime consult it before the lemma head's edit script.

    python -m green_nlp.export.lemma_lexicon ARCHIVE TRAIN.conllu -o OUT.tar.gz
    python -m green_nlp.export.lemma_lexicon FOLDER TRAIN.conllu        (an exported folder, in place)

An archive gets it as vocabulary namespace `lemma_lexicon_labels` (one text line per entry, no
pickle), which the model reads when it is loaded and `green-export` writes into the folder; a folder
gets `lemma_lexicon.json`, named in `green_model.json` with its sha256 recorded. The dictionary is
built from the training file the model was trained on; nothing else in the archive changes, and an
archive or folder without it works as before.
"""

import argparse
import io
import json
import tarfile
from pathlib import Path
from typing import Any

from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.lemma_lexicon import FILE, MIN_SHARE, NAMESPACE, LemmaLexicon
from green_nlp.runtime.model_folder import rewrite_meta

VOCABULARY_MEMBER = f"vocabulary/{NAMESPACE}.txt"


def write_lemma_lexicon(lexicon: LemmaLexicon, folder: Path) -> dict[str, Any]:
    """Write `FILE` into an export folder; return its `green_model.json` entry."""
    lexicon.write(Path(folder) / FILE)
    return {"file": FILE, "entries": len(lexicon)}


def add_to_folder(folder: Path, lexicon: LemmaLexicon) -> None:
    """Add (or replace) the dictionary of an exported parser folder and re-record its hashes."""
    folder = Path(folder)
    meta_path = folder / META_FILE
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if meta.get("family") != "parser" or not (meta.get("outputs") or {}).get("lemma_rules"):
        raise ValueError(f"{folder}: not a parser folder with the LEMMA head, so a lemma dictionary has no use there")
    meta["lemma_lexicon"] = write_lemma_lexicon(lexicon, folder)
    rewrite_meta(folder, meta)  # in the indentation the file has


def add_to_archive(archive: Path, lexicon: LemmaLexicon, output: Path) -> None:
    """Copy `archive` to `output` with the dictionary as vocabulary namespace `NAMESPACE`."""
    if Path(archive).resolve() == Path(output).resolve():
        raise ValueError(f"{output}: write the archive with the dictionary to a new path, not over {archive}")
    data = ("\n".join(lexicon.to_lines()) + "\n").encode("utf-8")
    with tarfile.open(archive, "r:gz") as source:
        names = source.getnames()
        if "config.json" not in names or not any(name.startswith("vocabulary/") for name in names):
            raise ValueError(f"{archive}: no config.json and vocabulary/ in it; is it an AllenNLP model archive?")
        config = json.load(source.extractfile("config.json"))  # type: ignore[arg-type]
        if not config.get("model", {}).get("predict_lemmas"):
            raise ValueError(f"{archive}: its model has no LEMMA head (predict_lemmas), so a dictionary has no use")
        with tarfile.open(output, "w:gz") as target:
            for member in source.getmembers():
                if member.name != VOCABULARY_MEMBER:
                    target.addfile(member, source.extractfile(member) if member.isfile() else None)
            entry = tarfile.TarInfo(VOCABULARY_MEMBER)
            entry.size = len(data)
            target.addfile(entry, io.BytesIO(data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path, help="a model.tar.gz archive or an exported parser folder")
    parser.add_argument("train_file", type=Path, help="the CoNLL-U file the model was trained on")
    parser.add_argument("-o", "--output", type=Path, help="the new archive (archives only)")
    parser.add_argument("--min-share", type=float, default=MIN_SHARE)
    args = parser.parse_args()
    lexicon = LemmaLexicon.from_conllu(args.train_file, args.min_share)
    if args.model.is_dir():
        add_to_folder(args.model, lexicon)
        print(f"{args.model}: {FILE} with {len(lexicon):,} entries")
    else:
        if args.output is None:
            raise SystemExit("an archive needs -o/--output: the archive with the dictionary is written there")
        add_to_archive(args.model, lexicon, args.output)
        print(f"{args.output}: {args.model} with {len(lexicon):,} dictionary entries")


if __name__ == "__main__":
    main()
