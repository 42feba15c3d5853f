"""Mean and spread over seeds of the TREC DAN variants trained by experiments/dan_trec_seeds/run.sh:
dev (the part held out of the training file, which picks each run's best epoch) and test accuracy.

    python -m experiments.dan_trec_seeds.score [--runs runs]

Writes experiments/dan_trec_seeds/results/dan_trec_seeds.json and .md.
"""

import argparse
import json
import re
import statistics
from pathlib import Path

from benchmarks.common import summarize_seeds, write_results

RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts

VARIANTS = {
    "scratch": "DAN from scratch on the 4,907 training questions (CE)",
    "kd_train_only": "DAN(KD), teacher logits for the training questions only (T 2)",
    "kd": "DAN(KD), training questions + 20 augmented copies of each (T 2; STAGE=kd)",
    "kd_t1": "DAN(KD), as kd with temperature 1",
    "kd_questions": "DAN(KD), as kd plus 30,851 questions from IMDB reviews (STAGE=kd_questions)",
}


def collect(seed_dir: Path) -> dict[str, dict[int, dict[str, float]]]:
    found: dict[str, dict[int, dict[str, float]]] = {}
    for metrics_file in sorted(seed_dir.glob("*_s*/metrics.json")):
        match = re.fullmatch(r"(.+)_s(\d+)", metrics_file.parent.name)
        if not match or match.group(1) not in VARIANTS:
            continue
        metrics = json.loads(metrics_file.read_text())
        found.setdefault(match.group(1), {})[int(match.group(2))] = {
            "dev": 100 * metrics["best_validation_accuracy"],
            "test": 100 * metrics["test_accuracy"],
        }
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    args = parser.parse_args()
    found = collect(args.runs / "dan" / "trec" / "seeds")
    if not found:
        raise SystemExit("no seed runs found: run experiments/dan_trec_seeds/run.sh first")
    rows = {
        variant: summarize_seeds({seed: found[variant][seed] for seed in sorted(found[variant])})
        for variant in VARIANTS
        if variant in found
    }
    scratch = rows.get("scratch")
    for variant, row in rows.items():
        if scratch is not None and variant != "scratch":
            common = sorted(set(row["seeds"]) & set(scratch["seeds"]))
            row["test_points_over_scratch_mean"] = statistics.mean(
                found[variant][s]["test"] - found["scratch"][s]["test"] for s in common
            )
            row["dev_points_over_scratch_mean"] = statistics.mean(
                found[variant][s]["dev"] - found["scratch"][s]["dev"] for s in common
            )
    results = {"variants": VARIANTS, "rows": rows}
    table_rows = {
        variant: {
            "seeds": len(row["seeds"]),
            **{
                k: row.get(k)
                for k in (
                    "dev_mean",
                    "dev_stdev",
                    "test_mean",
                    "test_stdev",
                    "test_min",
                    "test_max",
                    "dev_points_over_scratch_mean",
                    "test_points_over_scratch_mean",
                )
            },
        }
        for variant, row in rows.items()
    }
    note = (
        "TREC accuracy (%) over seeds (random, numpy and torch seeds set together): dev = every 10th "
        "training question, held out, which picks each run's best epoch; test = the 500 test questions. "
        "Points over scratch are paired by seed. " + "; ".join(f"{k}: {v}" for k, v in VARIANTS.items()) + "."
    )
    write_results(
        RESULTS, "dan_trec_seeds", results, table_rows, list(next(iter(table_rows.values()))), note, "variant"
    )


if __name__ == "__main__":
    main()
