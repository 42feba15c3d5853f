"""Every saved time-budget run side by side, and each CPU's range over its runs.

    python -m benchmarks.runtime.time_budget_runs

Why: one run on a shared 2-core machine moves with its neighbours' load (the same CPU's int8 matrix
product has run at 88-164 GFLOP/s), so the README quotes ranges over runs; this table is where
those ranges come from. It reads `benchmarks/results/time_budget.json` (the latest run) and every
`time_budget.runN.json` beside it, and writes `time_budget_runs.{json,md}` there. The time budget
runs it itself when it writes to the default results folder. A figure a run did not measure (the
older runs lack the numba engine, the whole classify processes and spaCy's start alone) is blank.
Runs are grouped by the kind of CPU they recorded (name, family and model, int8 instructions:
`benchmarks.machine`); the runs saved before that have only the CPU's name.
"""

import argparse
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

from benchmarks.common import RESULTS, write_results
from benchmarks.runtime.classify_processes import fastest_figures, numba_break_even
from benchmarks.runtime.time_budget import SPACY_START, parse_floor

NAME = "time_budget_runs"
NOT_RECORDED = "family and int8 instructions not recorded"
RUN_FILE = re.compile(r"^time_budget(?:\.run(\d+))?\.json$")


def _ratio(key: str) -> Callable[[dict[str, Any]], Optional[float]]:
    return lambda run: run.get("ratios_to_peers", {}).get(key)


def _cold(name: str) -> Callable[[dict[str, Any]], Optional[float]]:
    return lambda run: run.get("cold_starts", {}).get(name, {}).get("first_line_s")


def _whole_classify_lines(run: dict[str, Any]) -> Optional[float]:
    """Lines each whole classify process read: SST-2 test 8 times over up to run14, 32 times since."""
    texts = run.get("whole_classify_processes", {}).get("texts", {})
    return float(next(iter(texts.values()))) if texts else None


def _fastest(run: dict[str, Any]) -> dict[str, Any]:
    """The run's whole classify figures with the fastest-run ones (`fastest_figures`) recomputed from its
    saved runs, so that runs saved before those figures read on the same footing; {} where not measured."""
    whole = run.get("whole_classify_processes") or {}
    return {**whole, **fastest_figures(whole)} if "runs" in whole else whole


def _after_start(command: str) -> Callable[[dict[str, Any]], Optional[float]]:
    return lambda run: _fastest(run).get("us_per_text_after_start", {}).get(command)


def _break_even(run: dict[str, Any]) -> Optional[float]:
    whole = _fastest(run)
    return numba_break_even(whole) if "seconds" in whole else None


def _floor_ratio(run: dict[str, Any]) -> Optional[float]:
    """The most `parse / spaCy` the run's model could reach on its core (`time_budget.parse_floor`: the
    model at its FLOP limit plus the other stages as measured), from the run's saved rows."""
    rows, spacy = run.get("rows", {}), run.get("spacy") or {}
    if not spacy.get("tokens") or rows.get("parse model", {}).get("limit_us_per_token") is None:
        return None
    return parse_floor(rows, spacy["seconds"] / spacy["tokens"] * 1e6)["best_ratio_at_floor"]


# column -> (how a run gives it, decimals); the ratios are green_nlp's items per CPU-second over the peer's
COLUMNS: dict[str, tuple[Callable[[dict[str, Any]], Optional[float]], int]] = {
    "int8 GEMM GFLOP/s": (lambda run: run.get("gemm_gflops", {}).get("onnxruntime_int8"), 0),
    "parse / spaCy": (_ratio("parse vs spaCy en_core_web_sm"), 2),
    "parse / spaCy at the model's floor": (_floor_ratio, 2),
    # the in-process stages' words (25,531 on EWT test before run36, without the folder's tokenizer
    # rules; 25,085 with them, as `green-nlp parse` splits them)
    "parse tokens, in process": (lambda run: run.get("parse", {}).get("tokens"), 0),
    "parse / spaCy, whole processes": (_ratio("parse whole process vs spaCy script"), 2),
    "parse start s": (_cold("green-nlp parse en-ewt-parser"), 2),
    "spaCy's start s": (_cold(SPACY_START), 2),
    "classify start s": (_cold("green-nlp classify en-sst2-sentiment"), 2),
    "numba start s": (_cold("green-nlp classify en-sst2-sentiment --engine numba"), 2),
    "DAN b1 / fastText predict": (_ratio("classify b1 vs fastText wordNgrams 2"), 2),
    "DAN b32 / fastText predict": (_ratio("classify b32 vs fastText wordNgrams 2"), 2),
    "DAN b1 / fastText, same job": (_ratio("classify b1 vs fastText wordNgrams 2, same job"), 2),
    "DAN b32 / fastText, same job": (_ratio("classify b32 vs fastText wordNgrams 2, same job"), 2),
    "numba b1 / fastText, same job": (_ratio("classify numba engine b1 vs fastText wordNgrams 2, same job"), 2),
    "numba b32 / fastText, same job": (_ratio("classify numba engine b32 vs fastText wordNgrams 2, same job"), 2),
    "whole classify lines": (_whole_classify_lines, 0),
    "classify / fastText script, whole processes": (_ratio("green-nlp classify whole process vs fastText script"), 2),
    "numba / fastText script, whole processes": (
        _ratio("green-nlp classify --engine numba whole process vs fastText script"),
        2,
    ),
    "us a text after start: classify": (_after_start("green-nlp classify"), 0),
    "us a text after start: numba": (_after_start("green-nlp classify --engine numba"), 0),
    "us a text after start: fastText script": (_after_start("fastText script"), 0),
    "numba break-even lines": (_break_even, -3),
}


def run_cpu(run: dict[str, Any]) -> str:
    """The kind of CPU a run names (`benchmarks.machine.cpu_kind`); runs saved before it was recorded
    have only the CPU's name, which may cover several generations, and say so."""
    return str(run.get("cpu_kind") or f"{run.get('cpu', 'unknown CPU')}, {NOT_RECORDED}")


def saved_runs(results_dir: Path) -> dict[str, dict[str, Any]]:
    """The saved runs by name, run1, run2, ... in order and then `latest` (time_budget.json)."""
    found: list[tuple[float, str, Path]] = []
    for path in results_dir.glob("time_budget*.json"):
        match = RUN_FILE.match(path.name)
        if match:
            number = match.group(1)
            found.append((int(number) if number else float("inf"), f"run{number}" if number else "latest", path))
    return {name: json.loads(path.read_text()) for _, name, path in sorted(found)}


def _cell(value: Optional[float], decimals: int) -> str:
    if value is None:
        return ""
    if decimals < 0:  # rounded to a power of ten: a figure this noisy has no more digits
        return f"{round(value, decimals):,.0f}"
    return f"{value:,.{decimals}f}"


def runs_table(runs: dict[str, dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """(rows, ranges): a row per run, and per CPU the lowest and highest of each figure over its runs."""
    rows: dict[str, dict[str, Any]] = {}
    values: dict[str, dict[str, list[float]]] = {}
    for name, run in runs.items():
        cpu = run_cpu(run)
        row: dict[str, Any] = {"cpu": cpu}
        for column, (read, decimals) in COLUMNS.items():
            value = read(run)
            row[column] = _cell(value, decimals)
            if value is not None:
                values.setdefault(cpu, {}).setdefault(column, []).append(float(value))
        rows[name] = row
    ranges: dict[str, dict[str, Any]] = {}
    for cpu, columns in values.items():
        count = sum(1 for row in rows.values() if row["cpu"] == cpu)
        label = f"{cpu}: range over {count} run{'' if count == 1 else 's'}"
        ranges[label] = {"cpu": cpu, "runs": count}
        for column, (_, decimals) in COLUMNS.items():
            seen = columns.get(column)
            if seen:
                low, high = _cell(min(seen), decimals), _cell(max(seen), decimals)
                ranges[label][column] = low if low == high else f"{low}-{high}"
                ranges[label][f"{column} runs"] = len(seen)
    return rows, ranges


def write(results_dir: Path = RESULTS) -> None:
    runs = saved_runs(results_dir)
    if not runs:
        raise SystemExit(f"no time_budget*.json in {results_dir}: run python -m benchmarks.runtime.time_budget first")
    rows, ranges = runs_table(runs)
    note = (
        "Each saved run of `python -m benchmarks.runtime.time_budget` (`time_budget.runN.json`; `latest`: "
        "time_budget.json), then each CPU's lowest and highest figure over its runs that measured it. CPU: its "
        "name, family and model and its best int8 dot-product instructions (`benchmarks.machine`); the runs "
        f"saved before those were recorded say '{NOT_RECORDED}', and one such name may cover several CPUs. Ratios: "
        "green_nlp's items per CPU-second over the peer's in the same run (predict: fastText's predict call "
        "alone; same job: both read the lines, predict and write a JSON line per text). Starts: wall seconds "
        "to the first output line (medians of 5). `whole classify lines`: the lines of each whole classify process "
        "(start included, so its ratios depend on them). `parse / spaCy at the model's floor`: the most "
        "`parse / spaCy` the run's model could reach on that core, its graph at its weight FLOPs over the int8 "
        "GEMM rate of the same run and every other stage as the run measured it (`time_budget.parse_floor`). "
        "`us a text after start`: CPU-µs a text of whole `green-nlp classify` processes, default engine, numba "
        "engine and a fastText script, after their start (each one's fastest whole run minus its fastest "
        "first-line run, recomputed here from every run's saved times; the break-even from the same). "
        "`parse tokens, in process`: the words the in-process parse stages split EWT test into; from run36 on with "
        "the model folder's tokenizer rules, as `green-nlp parse` splits them. "
        "Blank: not measured in that run. Written by `python -m benchmarks.runtime.time_budget_runs`."
    )
    shown = ["cpu", *COLUMNS]
    ranges_shown = {label: {column: row.get(column) for column in shown} for label, row in ranges.items()}
    write_results(results_dir, NAME, {"runs": rows, "ranges": ranges}, {**rows, **ranges_shown}, shown, note, "run")


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    write()


if __name__ == "__main__":
    main()
