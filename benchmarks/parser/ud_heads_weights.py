"""Do the jointly trained LEMMA / FEATS / XPOS heads cost the parser LAS, and does a lower head loss
weight get it back? Several archives of the same raw-text recipe (heads at different loss weights,
and none), scored by the same code in one go on UD English-EWT dev and test.

    python -m benchmarks.parser.ud_heads_weights LABEL=ARCHIVE [LABEL=ARCHIVE ...]
        [--splits dev test] [--work-dir runs/ud_heads/weights] [--output-name parser_ud_heads_weights]

Each archive is exported for the runtime as it is (a head-less archive writes `_` for LEMMA, FEATS
and XPOS, so those columns only count words whose gold column is `_` too) and parsed int8 on one
thread, from raw text (each gold sentence's text as a line) and from the gold words, as
`benchmarks.parser.ud_heads` does; the CoNLL-U is scored by the shared task's script.
`--lemma-lexicon TRAIN.conllu` gives a LEMMA-head folder without a lemma dictionary (an archive
trained before `lemma_dictionary=true`) the one built from the training file, as the others carry.
Choose on dev; test is for reporting.
Results: benchmarks/results/<output-name>.{json,md}.
"""

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import conllu

from benchmarks.common import RESULTS, hardware_description, write_results
from benchmarks.parser.ud_heads import gold_token_scores, raw_text_scores
from green_nlp.settings import data_path

COLUMNS = ["uas", "las", "mlas", "lemmas", "ufeats", "xpos", "upos", "clas", "blex", "words_f1"]


def labelled_archive(value: str) -> tuple[str, Path]:
    """`LABEL=ARCHIVE` -> (label, archive path); argparse reports a bad one with the argument named."""
    label, sep, archive = value.partition("=")
    if not sep or not label.strip() or not archive:
        raise argparse.ArgumentTypeError(f"expected LABEL=ARCHIVE, got {value!r}")
    path = Path(archive)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"archive of {label!r} not found: {path}")
    return label.strip(), path


def read_gold(split: str) -> tuple[Path, list[conllu.TokenList]]:
    path = data_path("ud", "UD_English-EWT", f"en_ewt-ud-{split}.conllu")
    if not path.is_file():
        raise SystemExit(f"UD English-EWT {split} not found at {path}: set GREEN_NLP_DATA")
    with open(path, encoding="utf-8") as handle:
        return path, list(conllu.parse_incr(handle))


def model_rows(
    label: str, model: Any, golds: dict[str, tuple[Path, list[conllu.TokenList]]]
) -> dict[str, dict[str, float]]:
    """'LABEL: split, raw text' and 'LABEL: split, gold tokens' rows of one loaded runtime model."""
    rows: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for split, (gold_path, gold) in golds.items():
            out = Path(folder) / f"{split}.conllu"
            rows[f"{label}: {split}, raw text"] = raw_text_scores(model, gold, gold_path, out)
            rows[f"{label}: {split}, gold tokens"] = gold_token_scores(model, gold, gold_path, out)
    return rows


def lemma_dictionary(folder: Path, lexicon: Any) -> str:
    """Where the folder's lemma dictionary comes from, adding `lexicon` to a LEMMA-head folder without one."""
    from green_nlp.export.lemma_lexicon import add_to_folder

    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    if meta.get("lemma_lexicon"):
        return "archive"
    if lexicon is None or not (meta.get("outputs") or {}).get("lemma_rules"):
        return "none"
    add_to_folder(folder, lexicon)
    return "training file"


def training_summary(archive: Path) -> dict[str, Any]:
    """Best epoch and training time from the run's metrics.json beside the archive, where there is one."""
    metrics = archive.parent / "metrics.json"
    if not metrics.is_file():
        return {}
    data = json.loads(metrics.read_text(encoding="utf-8"))
    keys = ("best_epoch", "epoch", "training_duration", "best_validation_LAS")
    return {key: data[key] for key in keys if key in data}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", type=labelled_archive, metavar="LABEL=ARCHIVE")
    parser.add_argument("--splits", nargs="+", choices=("dev", "test"), default=["dev", "test"])
    parser.add_argument("--work-dir", type=Path, default=Path("runs/ud_heads/weights"))
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    parser.add_argument("--output-name", default="parser_ud_heads_weights")
    parser.add_argument("--lemma-lexicon", type=Path, help="training CoNLL-U, for LEMMA-head folders lacking one")
    args = parser.parse_args()
    labels = [label for label, _ in args.models]
    if len(set(labels)) != len(labels):
        parser.error(f"labels must differ: {labels}")
    from green_nlp.export import export_archive
    from green_nlp.runtime import load
    from green_nlp.runtime.lemma_lexicon import LemmaLexicon

    lexicon = LemmaLexicon.from_conllu(args.lemma_lexicon) if args.lemma_lexicon else None
    golds = {split: read_gold(split) for split in args.splits}
    rows: dict[str, dict[str, Any]] = {}
    archives: dict[str, Any] = {}
    for number, (label, archive) in enumerate(args.models):
        folder = export_archive(archive, args.work_dir / f"model_{number}")
        dictionary = lemma_dictionary(folder, lexicon)
        rows.update(model_rows(label, load(folder, precision="int8", threads=1), golds))
        archives[label] = {"archive": str(archive), "lemma_dictionary": dictionary, **training_summary(archive)}
    results = {
        "machine": hardware_description(),
        "test_files": [f"UD English-EWT {split}" for split in args.splits],
        "archives": archives,
        "rows": rows,
    }
    note = (
        "UD English-EWT, CoNLL 2018 shared-task scores (F1, %) through the ONNX runtime, int8, one thread, of "
        + ", ".join(f"'{label}' (`{archive}`)" for label, archive in args.models)
        + ". Lemma dictionary (from the archive or the training file): "
        + ", ".join(f"'{label}' {entry['lemma_dictionary']}" for label, entry in archives.items())
        + ". raw text: each gold sentence's text as a line; gold tokens: the gold words given. A model "
        "without the heads writes `_` for LEMMA, FEATS and XPOS (its scores there count only words whose gold "
        "column is `_` too). Choose on dev. "
        "Produced by `python -m benchmarks.parser.ud_heads_weights`."
    )
    write_results(args.output_dir, args.output_name, results, rows, COLUMNS, note, first_column="model: split, input")


if __name__ == "__main__":
    main()
