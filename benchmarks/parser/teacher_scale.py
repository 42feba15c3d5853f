"""What teacher-scale parser distillation costs on this machine: the figures that size its runs.

    OMP_NUM_THREADS=1 python -m benchmarks.parser.teacher_scale [--train-sentences 200] \\
        [--label-documents 100] [--count-every 50] [--run-dir runs/parser/teacher_scale_bench]

1. MiniLM teacher training (training_configs/parser/ud_ewt_minilm_teacher.jsonnet, one thread):
   one epoch on the first `--train-sentences` EWT train sentences; seconds per sentence, and an
   epoch of EWT train (12,544 sentences) extrapolated from it.
2. Labelling: that (barely trained, same size and cost) teacher parses the first
   `--label-documents` reviews of IMDB's unlabelled reviews (train_unsup) with
   `allennlp green-label-teacher`'s code: sentences/s, cache bytes per sentence, and the probability
   mass that top-k cuts (k heads, k labels at each head; a trained teacher is sharper, so this is an
   upper bound).
3. IMDB's unlabelled text in sentences: every `--count-every`-th review split by the runtime's
   sentence splitter, extrapolated to all 50,000.
From these, the plan: the hours the full recipe takes on 2 CPU cores. Results:
benchmarks/results/parser_teacher_scale.{json,md}.
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import RESULTS, hardware_description, write_results
from green_nlp.settings import data_path

EWT_TRAIN_SENTENCES = 12544
IMDB_UNSUP_REVIEWS = 50000
CONFIG = "training_configs/parser/ud_ewt_minilm_teacher.jsonnet"


def train_teacher(run_dir: Path, sentences: int) -> dict[str, Any]:
    """One epoch on `sentences` EWT train sentences (validation on 50 dev sentences)."""
    overrides = {
        "dataset_reader.max_instances": sentences,
        "validation_dataset_reader.max_instances": 50,
        "trainer.num_epochs": 1,
        "evaluate_on_test": False,
    }
    command = [sys.executable, "-m", "allennlp", "train", CONFIG, "-s", str(run_dir), "-f"]
    command += ["--include-package", "green_nlp", "-o", json.dumps(overrides)]
    start = time.perf_counter()
    subprocess.run(command, check=True)
    wall = time.perf_counter() - start
    metrics = json.loads((run_dir / "metrics.json").read_text())
    seconds = _seconds(metrics["training_duration"])
    return {
        "sentences": sentences,
        "epoch_seconds": round(seconds, 1),
        "command_seconds": round(wall, 1),
        "seconds_per_sentence": round(seconds / sentences, 4),
        "ewt_epoch_minutes": round(seconds / sentences * EWT_TRAIN_SENTENCES / 60, 1),
    }


def _seconds(duration: str) -> float:
    hours, minutes, seconds = duration.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def label(archive: Path, output: Path, documents: int, top_k: int) -> dict[str, Any]:
    from green_nlp.commands.green_label_teacher import label_corpus
    from green_nlp.data.teacher_cache import read_header

    if output.exists():
        output.unlink()
    unsup = str(data_path("cls", "imdb", "train_unsup.jsonl.gz"))
    start = time.perf_counter()
    count = label_corpus(
        str(archive), [unsup], str(output), max_per_input=documents, top_k_heads=top_k, top_k_labels=top_k
    )
    seconds = time.perf_counter() - start
    header = read_header(str(output)) or {}
    header_bytes = len(json.dumps({"teacher_cache": 2, **header})) + 1
    words = arc_cut = label_cut = 0.0
    with open(output, encoding="utf-8") as handle:
        handle.readline()
        for line in handle:
            record = json.loads(line)
            words += len(record["words"])
            arc_cut += record["cut"][0]
            label_cut += record["cut"][1]
    size = output.stat().st_size - header_bytes
    return {
        "top_k": top_k,
        "documents": documents,
        "sentences": count,
        "words": int(words),
        "seconds": round(seconds, 1),
        "sentences_per_s": round(count / seconds, 2),
        "cache_bytes_per_sentence": round(size / count),
        "arc_mass_cut_per_word": round(arc_cut / words, 5),
        "label_mass_cut_per_word": round(label_cut / words, 5),
    }


def count_sentences(every: int) -> dict[str, Any]:
    from green_nlp.data.teacher_labelling import raw_sentences

    sample = Path(os.environ.get("TMPDIR", "/tmp")) / "imdb_unsup_sample.jsonl"
    taken = 0
    with (
        gzip.open(data_path("cls", "imdb", "train_unsup.jsonl.gz"), "rt", encoding="utf-8") as source,
        open(sample, "w", encoding="utf-8") as out,
    ):
        for number, line in enumerate(source):
            if number % every == 0:
                out.write(line)
                taken += 1
    sentences = sum(1 for _ in raw_sentences([str(sample)], "jsonl", max_words=100))
    sample.unlink()
    return {
        "reviews_sampled": taken,
        "sentences_in_sample": sentences,
        "estimated_sentences": round(sentences * IMDB_UNSUP_REVIEWS / taken, -3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train-sentences", type=int, default=200)
    parser.add_argument("--label-documents", type=int, default=100)
    parser.add_argument("--count-every", type=int, default=50)
    parser.add_argument("--top-k", type=int, nargs="+", default=[4, 2])
    parser.add_argument("--run-dir", default="runs/parser/teacher_scale_bench")
    parser.add_argument(
        "--teacher",
        default=None,
        help="label with this trained teacher archive (the training figure is still measured)",
    )
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    run_dir = Path(args.run_dir)
    training = train_teacher(run_dir / "teacher", args.train_sentences)
    labeller = Path(args.teacher) if args.teacher else run_dir / "teacher" / "model.tar.gz"
    labelling = {
        f"top-{k}": label(labeller, run_dir / f"imdb_top{k}.jsonl", args.label_documents, k) for k in args.top_k
    }
    counted = count_sentences(args.count_every)
    main_k = labelling[f"top-{args.top_k[0]}"]
    silver = counted["estimated_sentences"]
    plan = {
        "teacher_6_epochs_hours_1_core": round(training["ewt_epoch_minutes"] * 6 / 60, 1),
        "label_all_imdb_unsup_hours_1_core": round(silver / main_k["sentences_per_s"] / 3600, 1),
        "label_100k_hours_1_core": round(100000 / main_k["sentences_per_s"] / 3600, 1),
        "cache_gb_all_imdb_unsup": round(silver * main_k["cache_bytes_per_sentence"] / 1e9, 2),
    }
    results = {
        "hardware": hardware_description(),
        "threads": 1,
        "labelling_teacher": "trained (--teacher)" if args.teacher else "the 200-sentence, 1-epoch benchmark teacher",
        "teacher_training": training,
        "labelling": labelling,
        "imdb_unsup_sentences": counted,
        "plan": plan,
    }
    rows = {name: dict(row) for name, row in labelling.items()}
    note = (
        f"One thread. MiniLM teacher training: {training['seconds_per_sentence']} s per EWT sentence "
        f"({training['sentences']} sentences, 1 epoch), so {training['ewt_epoch_minutes']} min per EWT-train "
        f"epoch. IMDB unlabelled reviews: about {silver:,.0f} sentences (every {args.count_every}th review "
        f"counted). Plan on one core: teacher 6 epochs {plan['teacher_6_epochs_hours_1_core']} h, labelling "
        f"100k sentences {plan['label_100k_hours_1_core']} h, all of IMDB unsup "
        f"{plan['label_all_imdb_unsup_hours_1_core']} h, cache {plan['cache_gb_all_imdb_unsup']} GB."
    )
    columns = [
        "sentences",
        "sentences_per_s",
        "cache_bytes_per_sentence",
        "arc_mass_cut_per_word",
        "label_mass_cut_per_word",
    ]
    write_results(Path(args.out), "parser_teacher_scale", results, rows, columns, note, first_column="cache")


if __name__ == "__main__":
    main()
