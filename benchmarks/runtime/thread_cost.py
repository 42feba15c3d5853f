"""What onnxruntime's thread count costs a whole `green-nlp parse` / `green-nlp classify` run.

    python -m benchmarks.runtime.thread_cost --runtime-venv VENV [--repeats 5]

Each shipped model runs as a fresh process from `VENV` (green_nlp installed without torch) over real
text (UD English-EWT test's sentence texts, one per line; SST-2 test's sentences), once with
`--threads 1` and once with `--threads 2` (this machine's cores), taken in turn, medians of
`--repeats`. Each run gives the child's CPU seconds (user + system, start to exit: the energy the
job costs) and its wall seconds (what the user waits). The question it answers: which default the
command line should have. A batch of 32 short sentences is little work for a parallel region, and
onnxruntime's pool spins while it waits for work, so a second thread may buy little wall time for
much CPU time. Results:
benchmarks/results/thread_cost.{json,md}.
"""

import argparse
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.common import RESULTS, hardware_description, write_results
from benchmarks.runtime.parsing.processes import child_times
from benchmarks.runtime.parsing.settings import runtime_venv_env
from benchmarks.runtime.time_budget import (
    CLASSIFIER,
    PARSER,
    conllu_words,
    ewt_texts,
    load_avg,
    sst2_test,
)

NAME = "thread_cost"
# setting -> its command-line arguments
SETTINGS: dict[str, list[str]] = {"threads 1": ["--threads", "1"], "threads 2": ["--threads", "2"]}


def measure(venv: Path, repeats: int) -> dict[str, Any]:
    green = venv / "bin" / "green-nlp"
    if not green.exists():
        raise SystemExit(f"--runtime-venv {venv}: no bin/green-nlp there")
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        parse_in, classify_in = scratch / "ewt_test.txt", scratch / "sst2_test.txt"
        parse_in.write_text("\n".join(ewt_texts(None)) + "\n", encoding="utf-8")
        classify_in.write_text("\n".join(sst2_test(None)[0]) + "\n", encoding="utf-8")
        jobs = {
            "parse": [str(green), "parse", str(PARSER), str(parse_in), "-o", str(scratch / "out.conllu")],
            "classify": [str(green), "classify", str(CLASSIFIER), str(classify_in), "-o", str(scratch / "out.jsonl")],
        }
        runs: dict[str, dict[str, list[tuple[float, float]]]] = {job: {s: [] for s in SETTINGS} for job in jobs}
        items = {}
        for round_ in range(repeats + 1):  # the first round warms the file cache and is not counted
            for job, command in jobs.items():
                for setting, arguments in SETTINGS.items():
                    timed = child_times([*command, "--no-progress", *arguments], runtime_venv_env(), scratch)
                    if round_:
                        runs[job][setting].append(timed)
            if not round_:
                items = {
                    "parse": conllu_words(scratch / "out.conllu"),
                    "classify": sum(1 for _ in (scratch / "out.jsonl").open(encoding="utf-8")),
                }
    return {"items": items, "rows": rows_of(runs, items)}


def rows_of(runs: dict[str, dict[str, list[tuple[float, float]]]], items: dict[str, int]) -> dict[str, dict[str, Any]]:
    """One row per job and setting: median CPU and wall seconds, each as a ratio to the job's one-thread
    run, and items per CPU second."""
    table: dict[str, dict[str, Any]] = {}
    for job, settings in runs.items():
        base_cpu = statistics.median(cpu for cpu, _ in settings["threads 1"])
        base_wall = statistics.median(wall for _, wall in settings["threads 1"])
        for setting, timed in settings.items():
            cpu, wall = statistics.median(c for c, _ in timed), statistics.median(w for _, w in timed)
            table[f"{job}, {setting}"] = {
                "cpu_s": cpu,
                "wall_s": wall,
                "cpu_vs_1_thread": cpu / base_cpu,
                "wall_vs_1_thread": wall / base_wall,
                "items_per_cpu_s": items[job] / cpu,
                "runs": [[round(c, 3), round(w, 3)] for c, w in timed],
            }
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runtime-venv", type=Path, required=True, help="a venv with green_nlp without torch")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    load_before = load_avg()
    found = measure(args.runtime_venv, args.repeats)
    columns = ["cpu_s", "wall_s", "cpu_vs_1_thread", "wall_vs_1_thread", "items_per_cpu_s"]
    shown = {label: {c: round(row[c], 3) for c in columns} for label, row in found["rows"].items()}
    note = (
        f"Whole processes from a runtime venv (green_nlp without torch), shipped models, int8: `green-nlp parse` "
        f"on UD English-EWT test's {found['items']['parse']:,} words as raw sentence lines, `green-nlp classify` on "
        f"SST-2 test's {found['items']['classify']:,} sentences; OMP_NUM_THREADS=1 for the other libraries. "
        f"cpu_s: the child's user + system seconds, start to exit; wall_s: its wall seconds; items: words for "
        "parse, texts for classify; medians of "
        f"{args.repeats}, settings taken in turn after one uncounted round. "
        f"{hardware_description()}; load averages (1, 5, 15 min) before {load_before}, after {load_avg()}. "
        "Produced by `python -m benchmarks.runtime.thread_cost --runtime-venv VENV`."
    )
    results = {"machine": hardware_description(), "repeats": args.repeats, **found}
    write_results(args.output_dir, NAME, results, shown, columns, note)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
