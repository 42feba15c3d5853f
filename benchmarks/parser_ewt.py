"""Accuracy and one-thread CPU speed of green_nlp's biaffine parsers on the UD English-EWT test
set, beside allennlp-models' `biaffine_parser` trained on the same data with the same sizes.

All models are timed in the same process, one after another, on the same pre-built batches, so
the speed ratio holds even on a noisy machine. Timing covers the model's forward pass, tree
decoding and label decoding (what `allennlp predict` runs per batch), not file reading.
Accuracy is UAS/LAS over all words (punctuation included, full UD relation labels) for every
model, computed here from each model's own predictions.

    python benchmarks/parser_ewt.py [--runs runs] [--repeats 3] [--batch-size 32]

Writes benchmarks/results/parser_ewt.json and parser_ewt.md.
"""
import argparse
import json
import re
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import torch
from allennlp.common.plugins import import_plugins
from allennlp.data import Batch, Instance
from allennlp.models.archival import archive_model, load_archive

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import hardware_description, write_results  # noqa: E402

from green_nlp.data_paths import data_path  # noqa: E402
from green_nlp.dataset_readers import read_conllu  # noqa: E402
from green_nlp.nn.parameters import count_trainable_parameters  # noqa: E402

MODELS = [
    # (key, run folder, gold UPOS at input, description)
    ("green_nlp_gold_upos", "ewt_gold_upos", True, "green_nlp biaffine, gold UPOS + GloVe 50-d words"),
    ("green_nlp_raw_text", "ewt_raw_text", False, "green_nlp biaffine for raw text: words + char CNN, predicts UPOS"),
    ("allennlp_models_biaffine", "ewt_allennlp_models", True, "allennlp-models biaffine_parser, same sizes, gold UPOS"),
]


def training_info(run_dir: Path) -> Dict[str, Any]:
    """Epochs run and wall-clock minutes, from the per-epoch metrics AllenNLP writes."""
    epoch_files = sorted(run_dir.glob("metrics_epoch_*.json"), key=lambda p: int(re.findall(r"\d+", p.name)[-1]))
    if not epoch_files:
        return {}
    per_epoch = [json.loads(p.read_text()) for p in epoch_files]
    last = per_epoch[-1]
    hours, minutes, seconds = (float(x) for x in last["training_duration"].split(":"))
    config = json.loads((run_dir / "config.json").read_text())
    return {
        "epochs": len(epoch_files),
        "epochs_configured": config["trainer"]["num_epochs"],
        "best_epoch": last["best_epoch"] + 1,
        "best_dev_uas": round(100 * last["best_validation_UAS"], 2),
        "best_dev_las": round(100 * last["best_validation_LAS"], 2),
        "dev_las_by_epoch": [round(100 * m["validation_LAS"], 2) for m in per_epoch],
        "train_minutes": round(timedelta(hours=hours, minutes=minutes, seconds=seconds).total_seconds() / 60, 1),
    }


def ensure_archive(run_dir: Path) -> Tuple[Path, bool]:
    """The run's model.tar.gz; a run that has not finished (stopped early, or still going) is
    archived afresh from its current best.th, beside it, so the run can still resume."""
    archive = run_dir / "model.tar.gz"
    if archive.exists() and (run_dir / "metrics.json").exists():
        return archive, False
    if not (run_dir / "best.th").exists():
        raise FileNotFoundError(f"{run_dir} has neither model.tar.gz nor best.th")
    best_so_far = run_dir / "best_so_far.tar.gz"
    archive_model(str(run_dir), weights="best.th", archive_path=str(best_so_far))
    return best_so_far, True


class Timer:
    """Accumulates the time spent inside one method of a model (e.g. its tree decoder)."""

    def __init__(self, owner: Any, name: str) -> None:
        self.owner, self.name, self.seconds = owner, name, 0.0
        self.original: Callable = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return self.original(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        setattr(owner, name, timed)


def make_batches(instances: List[Instance], vocab, batch_size: int) -> List[Dict[str, Any]]:
    ordered = sorted(instances, key=lambda i: len(i["words"]))  # length-sorted, as bucket loaders do
    batches = []
    for start in range(0, len(ordered), batch_size):
        batch = Batch(ordered[start : start + batch_size])
        batch.index_instances(vocab)
        batches.append((batch.as_tensor_dict(), [i["words"].tokens for i in batch.instances]))
    return batches


def predict(model, batches) -> Tuple[Dict[Tuple[str, ...], Tuple[List[int], List[str]]], float]:
    predictions, start = {}, time.perf_counter()
    with torch.inference_mode():
        for tensors, tokens in batches:
            output = model.make_output_human_readable(model(**tensors))
            labels = output.get("predicted_deprels", output.get("predicted_dependencies"))
            for words, heads, deprels in zip(tokens, output["predicted_heads"], labels):
                predictions.setdefault(tuple(t.text for t in words), []).append((list(heads), list(deprels)))
    return predictions, time.perf_counter() - start


def attachment_scores(gold_file: Path, predictions) -> Tuple[float, float]:
    correct_heads = correct_labeled = total = 0
    seen: Dict[Tuple[str, ...], int] = {}
    for sentence in read_conllu(gold_file):
        key = tuple(sentence.words)
        heads, deprels = predictions[key][seen.get(key, 0)]  # duplicates keep file order
        seen[key] = seen.get(key, 0) + 1
        for gold_head, gold_label, head, label in zip(sentence.heads, sentence.deprels, heads, deprels):
            total += 1
            correct_heads += int(gold_head) == int(head)
            correct_labeled += int(gold_head) == int(head) and gold_label == label
    return 100 * correct_heads / total, 100 * correct_labeled / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"), help="folder holding the training runs")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args()

    import_plugins()
    torch.set_num_threads(1)
    test_file = data_path("ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    gold = list(read_conllu(test_file))
    num_tokens, num_sentences = sum(len(s.words) for s in gold), len(gold)

    rows: Dict[str, Dict[str, Any]] = {}
    for key, folder, gold_upos, description in MODELS:
        run_dir = args.runs / folder
        if not run_dir.exists():
            print(f"[skip] {key}: no training run at {run_dir}")
            continue
        archive_path, from_best = ensure_archive(run_dir)
        archive = load_archive(str(archive_path))
        model = archive.model.eval()
        reader = archive.validation_dataset_reader
        instances = list(reader.read(test_file))
        for instance in instances:
            reader.apply_token_indexers(instance)
        batches = make_batches(instances, model.vocab, args.batch_size)
        decoder = Timer(model, "decode" if hasattr(model, "decode") else "_mst_decode")
        timings, predictions = [], None
        for _ in range(args.repeats):
            decoder.seconds = 0.0
            predictions, seconds = predict(model, batches)
            timings.append((seconds, decoder.seconds))
        seconds, decode_seconds = sorted(timings)[len(timings) // 2]  # the median run
        uas, las = attachment_scores(test_file, predictions)
        rows[key] = {
            "description": description,
            "treebank": "UD_English-EWT",
            "split": "test",
            "gold_upos": gold_upos,
            "uas": round(uas, 2),
            "las": round(las, 2),
            "params": count_trainable_parameters(model),
            **training_info(run_dir),
            "archived_from_best_th": from_best,
            "cpu_tokens_per_s": round(num_tokens / seconds, 1),
            "cpu_sentences_per_s": round(num_sentences / seconds, 1),
            "decode_share": round(decode_seconds / seconds, 3),
            "timing_runs_s": [round(t, 3) for t, _ in timings],
        }
        print(f"{key}: UAS {uas:.2f} LAS {las:.2f} | {num_tokens / seconds:,.0f} tokens/s, "
              f"decoding {100 * decode_seconds / seconds:.0f}% of the time")

    if "green_nlp_gold_upos" in rows and "allennlp_models_biaffine" in rows:
        ours, peer = rows["green_nlp_gold_upos"], rows["allennlp_models_biaffine"]
        rows["green_nlp_gold_upos"]["speedup_vs_allennlp_models"] = round(
            ours["cpu_tokens_per_s"] / peer["cpu_tokens_per_s"], 2)

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
    if "green_nlp_gold_upos" in rows:  # the headline model's figures at the top level
        results.update({k: rows["green_nlp_gold_upos"][k] for k in
                        ("treebank", "uas", "las", "params", "epochs", "train_minutes", "gold_upos")
                        if k in rows["green_nlp_gold_upos"]})
    columns = ["uas", "las", "params", "epochs", "train_minutes", "cpu_tokens_per_s", "cpu_sentences_per_s",
               "decode_share"]
    write_results(args.out, "parser_ewt", results, rows, columns,
                  note=f"UD English-EWT test ({num_sentences} sentences, {num_tokens} tokens); one CPU thread, "
                       f"batch {args.batch_size} length-sorted, median of {args.repeats}; {hardware_description()}.")


if __name__ == "__main__":
    main()
