"""SST-2 accuracy over seeds of the shipped sentiment DAN's config at each silver size (the first N
teacher-labelled IMDB sentences beside SST-2's training phrases; experiments/dan_silver_size/run.sh),
read from each run's metrics.json: dev = SST-2 dev (872 sentences), which picks each run's best epoch;
test = SST-2 test (1,821), the DAN in torch before the recipe's compression.

    python -m experiments.dan_silver_size.score [--runs runs]

Writes experiments/dan_silver_size/results/dan_silver_size.json and .md.
"""

import argparse
import json
import re
from pathlib import Path

from benchmarks.common import summarize_seeds, write_results

RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts


def seed_runs(runs: Path) -> dict[int, dict[str, dict[str, float]]]:
    """size -> seed -> {"dev", "test"} accuracy (%) of every finished run."""
    scores: dict[int, dict[str, dict[str, float]]] = {}
    for folder in sorted((runs / "pretrained" / "en-sst2-sentiment" / "silver_size").glob("imdb*_s*")):
        match = re.fullmatch(r"imdb(\d+)_s(\w+)", folder.name)
        if not match or not (folder / "metrics.json").exists():
            continue
        metrics = json.loads((folder / "metrics.json").read_text(encoding="utf-8"))
        scores.setdefault(int(match.group(1)), {})[match.group(2)] = {
            "dev": 100 * metrics["best_validation_accuracy"],
            "test": 100 * metrics["test_accuracy"],
        }
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    args = parser.parse_args()
    scores = seed_runs(args.runs)
    if not scores:
        raise SystemExit("no finished runs: run experiments/dan_silver_size/run.sh first")
    rows = {f"{size:,} IMDB sentences": summarize_seeds(scores[size]) for size in sorted(scores)}
    columns = ["runs", "dev_mean", "dev_stdev", "test_mean", "test_stdev", "test_min", "test_max"]
    table_rows = {
        name: {"runs": len(row["seeds"]), **{k: row.get(k) for k in columns[1:]}} for name, row in rows.items()
    }
    note = (
        "SST-2 accuracy (%) of the DAN (torch, before compression) over seeds (random, numpy and torch seeds set "
        "together; `default` = AllenNLP's, the recipe's own). Distillation text: all 67,349 SST-2 training phrases "
        "+ the first N IMDB sentences, all labelled by the recipe's MiniLM teacher; KL to its logits. Dev (872) picks "
        "each run's best epoch; test 1,821 sentences."
    )
    write_results(RESULTS, "dan_silver_size", {"rows": rows, "scores": scores}, table_rows, columns, note, "silver")


if __name__ == "__main__":
    main()
