"""Test accuracy over seeds of IMDB's DAN(scratch) and DAN(KD) (the GPU teacher's students, trained
by benchmarks/runs/dan.sh imdb_full and, with other seeds, experiments/dan_imdb_seeds/run.sh), on
the same 1,000-review test sample as benchmarks/dan/distillation.py; dev = the held-out training reviews that
pick each run's best epoch.

    python -m experiments.dan_imdb_seeds.score [--runs runs]

Writes experiments/dan_imdb_seeds/results/dan_imdb_seeds.json and .md.
"""

import argparse
import json
import re
import statistics
from pathlib import Path
from typing import Any

import torch
from allennlp.models.archival import load_archive

from benchmarks.common import summarize_seeds, write_results
from benchmarks.dan.distillation import evaluation_sets, run_model

RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts

VARIANTS = {
    "scratch": "DAN(scratch): CE on the teacher's 22,917 labeled reviews",
    "kd": "DAN(KD): KL to the GPU teacher over those reviews + 16,667 unlabeled ones",
}
DEFAULT_SEED = "default"  # the runs benchmarks/dan/distillation.py reports (AllenNLP's default seeds)


def seed_runs(runs: Path) -> list[tuple[str, str, Path]]:
    """(variant, seed, run folder) of every finished run."""
    root = runs / "dan" / "imdb_full"
    found = [(variant, DEFAULT_SEED, root / variant) for variant in VARIANTS]
    for folder in sorted((root / "seeds").glob("*_s*")):
        match = re.fullmatch(r"(.+)_s(\d+)", folder.name)
        if match and match.group(1) in VARIANTS:
            found.append((match.group(1), match.group(2), folder))
    return [(v, s, f) for v, s, f in found if (f / "metrics.json").exists() and (f / "model.tar.gz").exists()]


def test_accuracy(archive_file: Path, examples: list[Any]) -> float:
    archive = load_archive(str(archive_file))
    predicted, _, _ = run_model(archive, [e.text for e in examples], batch_size=64)
    return 100 * statistics.mean(float(p == e.label) for p, e in zip(predicted, examples))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    examples, what = evaluation_sets("imdb")["test"]
    scores: dict[str, dict[str, dict[str, float]]] = {}
    for variant, seed, folder in seed_runs(args.runs):
        metrics = json.loads((folder / "metrics.json").read_text())
        scores.setdefault(variant, {})[seed] = {
            "dev": 100 * metrics["best_validation_accuracy"],
            "test": test_accuracy(folder / "model.tar.gz", examples),
        }
        print(f"{variant} seed {seed}: {scores[variant][seed]}", flush=True)
    if not scores:
        raise SystemExit("no finished runs under runs/dan/imdb_full: run benchmarks/runs/dan.sh imdb_full first")
    rows = {variant: summarize_seeds(scores[variant]) for variant in VARIANTS if variant in scores}
    if "scratch" in scores and "kd" in scores:
        paired = [s for s in scores["kd"] if s in scores["scratch"]]
        rows["kd"]["test_points_over_scratch_mean"] = statistics.mean(
            scores["kd"][s]["test"] - scores["scratch"][s]["test"] for s in paired
        )
        rows["kd"]["test_mean_over_scratch_mean"] = rows["kd"]["test_mean"] - rows["scratch"]["test_mean"]
    results = {"test": what, "variants": VARIANTS, "rows": rows, "scores": scores}
    table_rows = {
        variant: {
            "runs": len(row["seeds"]),
            **{
                k: row.get(k)
                for k in (
                    "dev_mean",
                    "dev_stdev",
                    "test_mean",
                    "test_stdev",
                    "test_min",
                    "test_max",
                    "test_points_over_scratch_mean",
                )
            },
        }
        for variant, row in rows.items()
    }
    note = (
        f"IMDB accuracy (%) over seeds (random, numpy and torch seeds set together; `default` = "
        f"AllenNLP's, the runs in dan.json). Test: {what}. Dev: every 12th training review, held out, "
        "which picks each run's best epoch. Points over scratch are paired by seed. "
        + "; ".join(f"{k}: {v}" for k, v in VARIANTS.items())
        + "."
    )
    write_results(
        RESULTS, "dan_imdb_seeds", results, table_rows, list(next(iter(table_rows.values()))), note, "variant"
    )


if __name__ == "__main__":
    main()
