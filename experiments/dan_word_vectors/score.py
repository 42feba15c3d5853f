"""Does a GloVe start for the DAN's n-gram table help? Each run of
experiments/dan_word_vectors/run.sh beside the same config's run without word vectors (a random
start, as in the paper), on the same seeds: dev accuracy (which picks the best epoch) and test
accuracy, both read from the runs' own metrics.json.

    python -m experiments.dan_word_vectors.score [--runs runs]

Writes experiments/dan_word_vectors/results/dan_word_vectors.json and .md.
"""

import argparse
import json
import statistics
from pathlib import Path
from typing import Any, Optional

from benchmarks.common import write_results

RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts

SEEDS = range(1, 6)
# row -> [(run with a random start, run with the GloVe start)] under <runs>/dan, one pair per seed
PAIRS: dict[str, list[tuple[str, str]]] = {
    "sst2 dan_kd": [("sst2_full/kd", "sst2_full/kd_glove")],
    "sst2 dan_scratch": [("sst2_full/scratch", "sst2_full/scratch_glove")],
    "trec dan_kd": [(f"trec/seeds/kd_s{s}", f"trec/glove/kd_s{s}") for s in SEEDS],
    "trec dan_scratch": [(f"trec/seeds/scratch_s{s}", f"trec/glove/scratch_s{s}") for s in SEEDS],
}


def accuracies(run: Path) -> Optional[dict[str, float]]:
    """Best-epoch dev and test accuracy (%) of a finished run; None if it has not finished."""
    metrics_file = run / "metrics.json"
    if not metrics_file.exists():
        return None
    metrics = json.loads(metrics_file.read_text())
    found = {"dev": 100 * metrics["best_validation_accuracy"], "test": 100 * metrics["test_accuracy"]}
    # how well the student fits its distillation corpus (KD runs): agreement with the teacher's
    # top class on the training data, in the epoch that was kept
    best_epoch = run / f"metrics_epoch_{metrics.get('best_epoch')}.json"
    if best_epoch.exists():
        agreement = json.loads(best_epoch.read_text()).get("training_teacher_agreement")
        if agreement is not None:
            found["train_teacher_agreement"] = 100 * agreement
    return found


def compare(runs: Path, pairs: list[tuple[str, str]]) -> Optional[dict[str, Any]]:
    """Means over the pairs where both runs finished, and the mean paired difference."""
    done = [
        (accuracies(runs / "dan" / plain), accuracies(runs / "dan" / glove), plain, glove) for plain, glove in pairs
    ]
    done = [d for d in done if d[0] is not None and d[1] is not None]
    if not done:
        return None
    row: dict[str, Any] = {"pairs": len(done), "runs": [{"random_start": p, "glove_start": g} for *_, p, g in done]}
    for split in ("dev", "test"):
        plain = [d[0][split] for d in done]
        glove = [d[1][split] for d in done]
        row[f"{split}_random_start"] = statistics.mean(plain)
        row[f"{split}_glove_start"] = statistics.mean(glove)
        row[f"{split}_difference"] = statistics.mean(g - p for g, p in zip(glove, plain))
        row[f"{split}_per_pair"] = [{"random_start": p, "glove_start": g} for p, g in zip(plain, glove)]
    for start, index in (("random_start", 0), ("glove_start", 1)):
        agreements = [d[index].get("train_teacher_agreement") for d in done]
        row[f"train_teacher_agreement_{start}"] = statistics.mean(agreements) if None not in agreements else None
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    args = parser.parse_args()
    rows = {name: row for name, pairs in PAIRS.items() if (row := compare(args.runs, pairs)) is not None}
    if not rows:
        raise SystemExit("no finished pair of runs: run experiments/dan_word_vectors/run.sh first")
    columns = [
        "pairs",
        "dev_random_start",
        "dev_glove_start",
        "dev_difference",
        "test_random_start",
        "test_glove_start",
        "test_difference",
        "train_teacher_agreement_random_start",
    ]
    note = (
        "Accuracy (%), mean over the pairs (seeds) where both runs finished; difference = GloVe start "
        "minus random start, paired by seed. train_teacher_agreement: how often a KD student's top class "
        "matches the teacher's on its own distillation corpus, counted during the kept epoch's training "
        "(dropout on). GloVe start: each n-gram's row begins with the mean of its "
        "words' 50-d GloVe vectors in its first 50 columns (ngram_dan `pretrained_file`), the same "
        "config otherwise. SST-2: the GPU teacher's setup (DATASET=sst2_full), one seed; TREC: "
        "DATASET=trec."
    )
    write_results(
        RESULTS,
        "dan_word_vectors",
        {"rows": rows},
        {k: {c: v[c] for c in columns} for k, v in rows.items()},
        columns,
        note,
        "dataset / student",
    )


if __name__ == "__main__":
    main()
