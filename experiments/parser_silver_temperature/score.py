"""EWT LAS over seeds of D-20 soft 49k at each silver temperature (experiments/parser_silver_temperature/
run.sh) beside the runs it is compared with at the same budget (10 epochs, seeds 1 and 2, all from
scripts/silver_students.sh): D-20 at T = 1, self-training (the teacher's 1-best trees) and B-20 (gold
only). Read from each run's metrics.json: dev = EWT dev LAS of the best epoch, test = EWT test LAS
(allennlp's evaluation, torch fp32, gold tokens, all words).

    python -m experiments.parser_silver_temperature.score [--runs runs]

Writes experiments/parser_silver_temperature/results/parser_silver_temperature.json and .md.
"""

import argparse
import json
import re
from pathlib import Path

from benchmarks.common import summarize_seeds, write_results

RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts
# row label -> run folder of seed 1 under runs/parser/ud_ewt (seed N: "<run>_seed<N>")
COMPARED = {
    "B-20 (gold only)": "silver_b20",
    "self-training (1-best silver trees)": "silver_st20_large",
    "D-20 soft 49k, T = 1": "silver_d20_large",
}
TEMPERATURE_RUN = re.compile(r"silver_d20_large_t(?P<t>\d+(?:\.\d+)?)")


def seed_scores(folder: Path, run: str) -> dict[int, dict[str, float]]:
    """seed -> {"dev", "test"} LAS (%) of the finished runs of `run` and its seed copies."""
    scores = {}
    copies = [path for path in folder.glob(f"{run}_seed*") if re.fullmatch(rf"{re.escape(run)}_seed\d+", path.name)]
    for path in [folder / run, *sorted(copies)]:
        seed = 1 if path.name == run else int(path.name.rsplit("_seed", 1)[1])  # not the _e<N> runs
        metrics_path = path / "metrics.json"
        if not (path / "model.tar.gz").is_file() or not metrics_path.is_file():
            continue
        metrics = json.loads(metrics_path.read_text(encoding="utf-8"))
        scores[seed] = {"dev": 100 * metrics["best_validation_LAS"], "test": 100 * metrics["test_LAS"]}
    return scores


def temperature_runs(folder: Path) -> dict[str, str]:
    """Row label -> seed-1 run folder of every temperature trained."""
    found = {}
    for path in sorted(folder.glob("silver_d20_large_t*")):
        match = TEMPERATURE_RUN.fullmatch(path.name)
        if match and path.is_dir():
            found[f"D-20 soft 49k, T = {match['t']}"] = path.name
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    args = parser.parse_args()
    folder = args.runs / "parser" / "ud_ewt"
    scores = {label: seed_scores(folder, run) for label, run in {**COMPARED, **temperature_runs(folder)}.items()}
    scores = {label: runs for label, runs in scores.items() if runs}
    if not any(label.startswith("D-20 soft 49k, T = ") and not label.endswith("= 1") for label in scores):
        raise SystemExit("no finished temperature run: run experiments/parser_silver_temperature/run.sh first")
    rows = {label: summarize_seeds(runs) for label, runs in scores.items()}
    columns = ["runs", "dev_mean", "dev_min", "dev_max", "test_mean", "test_min", "test_max"]
    table_rows = {
        label: {"runs": len(row["seeds"]), **{k: row.get(k) for k in columns[1:]}} for label, row in rows.items()
    }
    note = (
        "UD English-EWT LAS (%) from gold tokens, all words, torch fp32 (allennlp's evaluation in each run's "
        "metrics.json), over seeds 1 and 2 (scripts/silver_students.sh's seeds). Every row: SIZE=20 of "
        "training_configs/parser/ud_ewt_silver_student.jsonnet, 10 epochs of 600 batches; the silver rows read the "
        "same 49,000 teacher-parsed sentences (IMDB + EWT train text). T: the temperature of the KL to the teacher's "
        "stored top-2 head and label distributions on silver sentences (p^(1/T) renormalised, KL x T^2). Dev picks "
        "each run's best epoch."
    )
    write_results(
        RESULTS, "parser_silver_temperature", {"rows": rows, "scores": scores}, table_rows, columns, note, "student"
    )


if __name__ == "__main__":
    main()
