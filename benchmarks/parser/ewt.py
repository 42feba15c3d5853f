"""Accuracy and one-thread CPU speed of green_nlp's biaffine parsers on the UD English-EWT test
set, beside allennlp-models' `biaffine_parser` trained on the same data with the same sizes.

All models are timed in the same process, one after another, on the same pre-built batches, so
the speed ratio holds even on a noisy machine. Timing covers the model's forward pass, tree
decoding and label decoding (what `allennlp predict` runs per batch), not file reading.
Accuracy is UAS/LAS over all words (punctuation included, full UD relation labels) for every
model, computed here from each model's own predictions. Beside it, the official CoNLL 2018
shared-task evaluation (`green_nlp.evaluation.conll18`: UAS, LAS on universal relations, CLAS,
MLAS) of the CoNLL-U the `green_dependency_parser` predictor writes for the test file (as
`allennlp predict --use-dataset-reader` does; the file's other columns, FEATS included, carried
through). allennlp-models' parser has no such predictor: its heads and relations are written into
the gold file instead.

The gold-UPOS run is also scored as the average of its best and last checkpoints (written by
`allennlp green-average-checkpoints`); the headline figures are those of whichever of the two has
the higher LAS on the dev set (the test set never chooses).

    python -m benchmarks.parser.ewt [--runs runs] [--repeats 3] [--batch-size 32]

Writes benchmarks/results/parser_ewt.json and parser_ewt.md.
"""

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import conllu
import torch
from allennlp.common.plugins import import_plugins
from allennlp.models.archival import Archive, load_archive
from allennlp.predictors import Predictor

from benchmarks.common import hardware_description, write_results
from benchmarks.parser.parsing import (
    Predictions,
    Timer,
    attachment_scores,
    ensure_archive,
    make_batches,
    predict,
    read_for_model,
    training_info,
)
from benchmarks.reports.peers import peer_note, speed_only
from green_nlp.dataset_readers import read_conllu
from green_nlp.evaluation.conll18 import score_conllu
from green_nlp.nn.parameters import count_trainable_parameters
from green_nlp.settings import data_path

MODELS = [
    # (key, run folder, gold UPOS at input, description, archive inside the run folder or None)
    ("green_nlp_gold_upos", "ewt_gold_upos", True, "green_nlp biaffine, gold UPOS + GloVe 50-d words", None),
    (
        "green_nlp_gold_upos_averaged",
        "ewt_gold_upos",
        True,
        "green_nlp biaffine, gold UPOS + GloVe 50-d words; best-on-dev and last checkpoints averaged",
        "averaged.tar.gz",
    ),
    (
        "green_nlp_raw_text",
        "ewt_raw_text",
        False,
        "green_nlp biaffine for raw text: words + char CNN, predicts UPOS",
        None,
    ),
    (
        "allennlp_models_biaffine",
        "ewt_allennlp_models",
        True,
        "allennlp-models biaffine_parser, same sizes, gold UPOS",
        None,
    ),
]
HEADLINE_CANDIDATES = ("green_nlp_gold_upos", "green_nlp_gold_upos_averaged")  # chosen by dev LAS
PEERS = ("allennlp_models_biaffine",)  # trained for fewer epochs than ours: shown for speed only
SCORES = ("uas", "las", "conll18_uas", "conll18_las", "clas", "mlas", "dev_uas", "dev_las")
COLUMNS = [
    "uas",
    "las",
    "conll18_las",
    "clas",
    "mlas",
    "dev_las",
    "params",
    "epochs",
    "train_minutes",
    "cpu_tokens_per_s",
    "cpu_sentences_per_s",
    "decode_share",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"), help="folder holding the training runs")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="rewrite the Markdown table from the saved JSON without measuring again",
    )
    parser.add_argument(
        "--keep-missing",
        action="store_true",
        help="keep the saved row of a model whose run is absent here, marked as carried "
        "from an earlier run and left out of the speed ratios",
    )
    args = parser.parse_args()
    if args.report_only:
        write_report(args.out, json.loads((args.out / "parser_ewt.json").read_text()))
        return

    import_plugins()
    torch.set_num_threads(1)
    test_file = data_path("ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    dev_file = data_path("ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    gold = list(read_conllu(test_file))
    num_tokens, num_sentences = sum(len(s.words) for s in gold), len(gold)

    saved = args.out / "parser_ewt.json"
    earlier_rows = json.loads(saved.read_text())["models"] if saved.exists() else {}
    rows: dict[str, dict[str, Any]] = {}
    for key, folder, gold_upos, description, archive_name in MODELS:
        run_dir = args.runs / folder
        if archive_name is not None:
            archive_path, from_best = run_dir / archive_name, False
        else:
            archive_path, from_best = ensure_archive(run_dir) if run_dir.exists() else (run_dir, False)
        if not archive_path.exists():
            if args.keep_missing and key in earlier_rows:
                rows[key] = {**earlier_rows[key], "carried_from_earlier_run": True}
                print(f"[kept] {key}: no run at {archive_path}; its row from the earlier results is kept")
            else:
                print(f"[skip] {key}: no training run or archive at {archive_path}")
            continue
        archive = load_archive(str(archive_path))
        model = archive.model.eval()
        batches = make_batches(read_for_model(archive, test_file), model.vocab, args.batch_size)
        decoder = Timer(model, "decode" if hasattr(model, "decode") else "_mst_decode")
        timings, predictions = [], None
        for _ in range(args.repeats):
            decoder.seconds = 0.0
            predictions, seconds = predict(model, batches)
            timings.append((seconds, decoder.seconds))
        seconds, decode_seconds = sorted(timings)[len(timings) // 2]  # the median run
        uas, las = attachment_scores(test_file, predictions)
        conll18 = conll18_scores(archive, test_file, predictions, args.batch_size)
        dev_scores = {}
        if key in HEADLINE_CANDIDATES:
            dev_predictions, _ = predict(
                model, make_batches(read_for_model(archive, dev_file), model.vocab, args.batch_size)
            )
            dev_uas, dev_las = attachment_scores(dev_file, dev_predictions)
            dev_scores = {"dev_uas": round(dev_uas, 2), "dev_las": round(dev_las, 2)}
        rows[key] = {
            "description": description,
            "treebank": "UD_English-EWT",
            "split": "test",
            "gold_upos": gold_upos,
            "uas": round(uas, 2),
            "las": round(las, 2),
            **conll18,
            "params": count_trainable_parameters(model),
            **training_info(run_dir),
            "archived_from_best_th": from_best,
            **dev_scores,
            "cpu_tokens_per_s": round(num_tokens / seconds, 1),
            "cpu_sentences_per_s": round(num_sentences / seconds, 1),
            "decode_share": round(decode_seconds / seconds, 3),
            "timing_runs_s": [round(t, 3) for t, _ in timings],
        }
        print(
            f"{key}: UAS {uas:.2f} LAS {las:.2f} (CoNLL 2018: LAS {conll18['conll18_las']:.2f} "
            f"CLAS {conll18['clas']:.2f} MLAS {conll18['mlas']:.2f}) | {num_tokens / seconds:,.0f} tokens/s, "
            f"decoding {100 * decode_seconds / seconds:.0f}% of the time"
        )

    candidates = [key for key in HEADLINE_CANDIDATES if key in rows]
    headline = max(candidates, key=lambda key: rows[key]["dev_las"]) if candidates else None
    # a speed ratio only between models timed in this run
    timed_here = [key for key in candidates if not rows[key].get("carried_from_earlier_run")]
    if (
        timed_here
        and "allennlp_models_biaffine" in rows
        and not rows["allennlp_models_biaffine"].get("carried_from_earlier_run")
    ):
        peer = rows["allennlp_models_biaffine"]
        for key in timed_here:
            rows[key]["speedup_vs_allennlp_models"] = round(rows[key]["cpu_tokens_per_s"] / peer["cpu_tokens_per_s"], 2)

    results = {
        "benchmark": "parser_ewt",
        "test_file": "UD_English-EWT/en_ewt-ud-test.conllu",
        "test_sentences": num_sentences,
        "test_tokens": num_tokens,
        "batch_size": args.batch_size,
        "threads": 1,
        "repeats": args.repeats,
        "hardware": hardware_description(),
        "models": rows,
    }
    if headline:  # the headline model's figures at the top level
        results["headline_model"] = headline
        results.update(
            {
                k: rows[headline][k]
                for k in ("treebank", "uas", "las", "params", "epochs", "train_minutes", "gold_upos")
                if k in rows[headline]
            }
        )
    write_report(args.out, results)


def conll18_scores(archive: Archive, test_file: Path, predictions: Predictions, batch_size: int) -> dict[str, float]:
    """The CoNLL 2018 evaluation of the model's parse of `test_file`, as `conll18_*` / `clas` / `mlas`."""
    with tempfile.TemporaryDirectory() as folder:
        predicted = Path(folder) / "predicted.conllu"
        if archive.model.default_predictor == "green_dependency_parser":
            write_predictor_conllu(archive, test_file, predicted, batch_size)
        else:
            write_into_gold(test_file, predictions, predicted)
        scores = score_conllu(test_file, predicted)
    return {
        "conll18_uas": round(scores.uas, 2),
        "conll18_las": round(scores.las, 2),
        "clas": round(scores.clas, 2),
        "mlas": round(scores.mlas, 2),
    }


def write_predictor_conllu(archive: Archive, conllu_file: Path, out: Path, batch_size: int) -> None:
    """What `allennlp predict ARCHIVE FILE --use-dataset-reader --predictor green_dependency_parser` writes."""
    predictor = Predictor.from_archive(archive, "green_dependency_parser")
    instances = list(archive.validation_dataset_reader.read(conllu_file))
    with out.open("w", encoding="utf-8") as lines:
        for start in range(0, len(instances), batch_size):
            for output in predictor.predict_batch_instance(instances[start : start + batch_size]):
                lines.write(predictor.dump_line(output))


def write_into_gold(gold_file: Path, predictions: Predictions, out: Path) -> None:
    """The gold file with each word's HEAD and DEPREL replaced by the predicted ones (for a model
    without a CoNLL-U predictor); sentences are matched by their words, in file order."""
    seen: dict[tuple, int] = {}
    with gold_file.open(encoding="utf-8") as gold, out.open("w", encoding="utf-8") as lines:
        for sentence in conllu.parse_incr(gold):
            words = [token for token in sentence if isinstance(token["id"], int)]
            key = tuple(token["form"] for token in words)
            heads, deprels = predictions[key][seen.get(key, 0)]
            seen[key] = seen.get(key, 0) + 1
            for token, head, deprel in zip(words, heads, deprels):
                token["head"], token["deprel"] = head, deprel
            lines.write(sentence.serialize())


def write_report(out: Path, results: dict[str, Any]) -> None:
    """The table of `results` (a peer's scores left out, see `speed_only`; a column no row has, such as
    figures added after the rows were measured, left out too) and its note."""
    models = {key: {**row, "peer": key in PEERS} for key, row in results["models"].items()}
    columns = [column for column in COLUMNS if any(row.get(column) is not None for row in models.values())]
    conll18 = (
        "conll18_las / clas / mlas: the CoNLL 2018 shared-task evaluation of the CoNLL-U the predictor "
        "writes (relations without subtypes; MLAS with the gold FEATS carried through)."
        if "conll18_las" in columns
        else ""
    )
    write_results(
        out,
        "parser_ewt",
        results,
        speed_only(models, SCORES),
        columns,
        note=f"UD English-EWT test ({results['test_sentences']} sentences, {results['test_tokens']} tokens); "
        f"one CPU thread, batch {results['batch_size']} length-sorted, median of {results['repeats']}; "
        f"{results['hardware']}."
        + (f" uas / las: strict (full relations, subtypes included); {conll18}" if conll18 else "")
        + (
            f" Headline model (higher dev LAS): {results['headline_model']}, test UAS {results['uas']} / "
            f"LAS {results['las']} (aim 91.0 / 89.0)."
            if results.get("headline_model")
            else ""
        )
        + "".join(
            f" {key} was measured in an earlier run (its training run was absent)."
            for key, row in results["models"].items()
            if row.get("carried_from_earlier_run")
        )
        + "".join(f" {line}." for line in peer_note(models)),
    )


if __name__ == "__main__":
    main()
