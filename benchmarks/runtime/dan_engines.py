"""The shipped sentiment DAN under its two engines (onnxruntime, numba) beside fastText, in one run.

    python -m benchmarks.runtime.dan_engines [--repeats 5] [--starts 5]

Texts per CPU second of this process on SST-2 dev + test, one thread, batch 1 (`classify` per text)
and 32 (`classify_many`), best of `--repeats` passes taken round-robin over the rows (so a busy
spell on a shared machine falls on all of them); fastText (PyPI `fasttext-numpy2`, benchmark-only)
trained on SST-2 train with word n-grams 1, 2 and 4 and timed predicting the same texts one by one
and 32 a call (its list `predict`), in the same round-robin, when importable. Also: how the
engines agree (labels, n-gram counts, largest probability difference), accuracy, and each
engine's start in a fresh process (load, engine, first text; wall seconds, median of `--starts`).
Results: benchmarks/results/dan_engines.{json,md}.
"""

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.common import RESULTS, hardware_description, write_results
from benchmarks.reports.energy import cpu_seconds_per_million, method_for, wh_per_million
from benchmarks.runtime.dan import best_rates, fasttext_accuracy, fasttext_models, sst2_examples
from benchmarks.runtime.time_budget import cpu_model
from green_nlp.runtime import load
from green_nlp.settings import data_path

MODEL = "en-sst2-sentiment"
ENGINES = ("onnxruntime", "numba")
PEER = "fasttext wordNgrams 2"


def start_seconds(engine: str, starts: int) -> float:
    """Median wall seconds of a fresh process that loads the model, sets the engine and classifies a
    text (after one untimed start, which also fills numba's cache)."""
    code = (
        "import time; t = time.perf_counter(); from green_nlp.runtime import load; "
        f"m = load({MODEL!r}).set_engine({engine!r}); m.classify('a fine film'); "
        "print(time.perf_counter() - t)"
    )
    times = []
    for _ in range(starts + 1):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        times.append(float(done.stdout.strip().splitlines()[-1]))
    return statistics.median(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--output-dir", default=str(RESULTS))
    args = parser.parse_args()
    data_dir = Path(data_path("cls", "sst2"))
    examples = sst2_examples(data_dir)
    texts = [example.text for example in examples]
    names = {"0": "negative", "1": "positive"}
    gold = [names.get(example.label, example.label) for example in examples]
    peers = fasttext_models(data_dir / "train.tsv")  # trained before numba loads
    engines = {engine: load(MODEL).set_engine(engine) for engine in ENGINES}
    runs: dict[str, Callable[[], Any]] = {}
    for engine, nlp in engines.items():
        runs[f"{engine} b1"] = lambda nlp=nlp: [nlp.classify(text) for text in texts]
        runs[f"{engine} b32"] = lambda nlp=nlp: list(nlp.classify_many(texts, batch_size=32))
    for word_ngrams, model in peers.items():  # in the same round-robin as the engines
        runs[f"fasttext wordNgrams {word_ngrams} b1"] = lambda model=model: [model.predict(text) for text in texts]
        # its list call: 32 texts a call, as the engines' b32
        runs[f"fasttext wordNgrams {word_ngrams} b32"] = lambda model=model: [
            model.predict(texts[start : start + 32]) for start in range(0, len(texts), 32)
        ]
    rows: dict[str, dict[str, Any]] = {
        name: {"batch_size": int(name.rsplit("b", 1)[1]), **rate}
        for name, rate in best_rates(runs, len(texts), args.repeats).items()
    }
    answers = {engine: list(nlp.classify_many(texts, batch_size=32)) for engine, nlp in engines.items()}
    for word_ngrams, model in peers.items():
        for size in ("b1", "b32"):
            rows[f"fasttext wordNgrams {word_ngrams} {size}"]["accuracy"] = fasttext_accuracy(model, texts, gold)
    for engine, results in answers.items():
        for size in ("b1", "b32"):
            rows[f"{engine} {size}"]["accuracy"] = sum(a.label == g for a, g in zip(results, gold)) / len(gold)
    peer_rates = {size: rows[f"{PEER} {size}"]["texts_per_cpu_s"] for size in ("b1", "b32") if f"{PEER} {size}" in rows}
    for name, row in rows.items():  # against fastText at the same batch size
        peer_rate = peer_rates.get(name.rsplit(" ", 1)[1])
        row["vs_fasttext_2grams"] = row["texts_per_cpu_s"] / peer_rate if peer_rate else None
        row["cpu_s_per_million"] = cpu_seconds_per_million(row["texts_per_cpu_s"])
        row["wh_per_million"] = wh_per_million(row["texts_per_cpu_s"])
    reference, compiled = answers["onnxruntime"], answers["numba"]
    agreement = {
        "same_label": sum(a.label == b.label for a, b in zip(reference, compiled)),
        "same_ngram_count": sum(a.num_ngrams == b.num_ngrams for a, b in zip(reference, compiled)),
        "texts": len(texts),
        "max_prob_diff": max(
            abs(p - q)
            for a, b in zip(reference, compiled)
            for p, q in zip(a.probabilities.values(), b.probabilities.values())
        ),
    }
    starts = {engine: start_seconds(engine, args.starts) for engine in ENGINES}
    for name, row in rows.items():
        engine = name.split(" ")[0]
        if engine in starts:
            row["start_s"] = starts[engine]
    import numba  # the engine loaded it: its version for the record
    import onnxruntime

    versions = {"numba": numba.__version__, "onnxruntime": onnxruntime.__version__}
    results = {
        "model": MODEL,
        "texts": len(texts),
        "repeats": args.repeats,
        "hardware": hardware_description(),
        "versions": versions,
        "speed": rows,
        "agreement": agreement,
        "start_s": starts,
        "measured": time.strftime("%Y-%m-%d"),
    }
    note = (
        f"`{MODEL}` (int8 graph) on SST-2 dev + test ({len(texts):,} texts), one thread, best of {args.repeats} "
        "passes round-robin, texts per CPU second of the process; b1: `classify` per text, b32: `classify_many`. "
        f"numba vs onnxruntime: same label on {agreement['same_label']:,} and same n-gram count on "
        f"{agreement['same_ngram_count']:,} of {len(texts):,} texts, probabilities within "
        f"{agreement['max_prob_diff']:.1e}. start_s: a fresh process's load, engine and first text, wall "
        f"seconds, median of {args.starts} after one untimed start. "
        + (
            "vs_fasttext_2grams: texts per CPU second over fastText wordNgrams 2's at the same batch size "
            f"({peer_rates['b1']:,.0f} one text a `predict` call, {peer_rates['b32']:,.0f} 32 a call; accuracy "
            f"{rows[PEER + ' b1']['accuracy']:.4f}; trained on SST-2 train, 5 epochs, dim 100), in the same "
            "round-robin. "
            if peer_rates
            else "fastText not importable: no peer rows. "
        )
        + f"{method_for(cpu_model())}. "
        + f"{hardware_description()}; "
        + ", ".join(f"{k} {v}" for k, v in versions.items())
        + "."
    )
    columns = [
        "batch_size",
        "texts_per_cpu_s",
        "vs_fasttext_2grams",
        "cpu_s_per_million",
        "wh_per_million",
        "accuracy",
        "start_s",
    ]
    write_results(Path(args.output_dir), "dan_engines", results, rows, columns, note, first_column="engine")


if __name__ == "__main__":
    main()
