"""`green-nlp classify` as whole processes, beside a fastText script doing the same job: the rate a
user sees from the command line, start included, for each engine.

Used by `benchmarks.runtime.time_budget --runtime-venv VENV`: the CLI runs from that venv (the numba
engine only where the venv has numba: `pip install 'green_nlp[numba]'`), the fastText script from the
Python that runs the benchmark (`fasttext` is benchmark-only).
"""

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

from benchmarks.runtime.parsing.processes import child_times
from benchmarks.runtime.parsing.settings import runtime_venv_env

CLASSIFIER_NAME = "en-sst2-sentiment"
CLI_BATCH = 32  # green-nlp classify's default --batch-size; the script predicts as many per call

# the peer's whole job as a user would script it: load, read the lines, predict every label's
# probability CLI_BATCH lines per call, write one JSON line per text (as green-nlp classify does)
FASTTEXT_SCRIPT = f"""
import json, sys, fasttext
model = fasttext.load_model(sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as handle:
    lines = [line.rstrip("\\n") for line in handle]
with open(sys.argv[3], "w", encoding="utf-8") as out:
    for start in range(0, len(lines), {CLI_BATCH}):
        labels, probs = model.predict(lines[start : start + {CLI_BATCH}], k=-1)
        for number, (names, values) in enumerate(zip(labels, probs), start=start + 1):
            record = {{"line": number, "label": names[0][len("__label__") :]}}
            record["probs"] = {{name[len("__label__") :]: float(value) for name, value in zip(names, values)}}
            out.write(json.dumps(record, ensure_ascii=False) + "\\n")
"""


def can_import(python: str, module: str) -> bool:
    """Whether `python` (a venv's interpreter) imports `module`, with nothing of this checkout on its path."""
    env = runtime_venv_env()
    return subprocess.run([python, "-c", f"import {module}"], capture_output=True, env=env).returncode == 0


def classify_commands(venv: Path, path: Path, out: Path, fasttext_model: Optional[Path]) -> dict[str, list[str]]:
    """The commands timed: the CLI per engine the venv can run, and the fastText script when a model is given."""
    green, python = str(venv / "bin" / "green-nlp"), str(venv / "bin" / "python")
    cli = [green, "classify", CLASSIFIER_NAME, str(path), "--no-progress", "--threads", "1"]
    commands = {"green-nlp classify": [*cli, "-o", str(out / "onnxruntime.jsonl")]}
    if can_import(python, "numba"):
        commands["green-nlp classify --engine numba"] = [*cli, "--engine", "numba", "-o", str(out / "numba.jsonl")]
    if fasttext_model is not None:
        script = out / "fasttext_classify.py"
        script.write_text(FASTTEXT_SCRIPT, encoding="utf-8")
        commands["fastText script"] = [
            sys.executable,
            str(script),
            str(fasttext_model),
            str(path),
            str(out / "f.jsonl"),
        ]
    return commands


def whole_classifies(path: Path, venv: Path, fasttext_model: Optional[Path], repeats: int) -> dict[str, Any]:
    """Median child CPU seconds of each command on the file at `path` and on its first line alone
    (the start: imports, loading, one text), each process started afresh, taken in turn after one
    uncounted round (the OS file cache warm, numba's machine code cached); from the two's fastest runs,
    each command's CPU microseconds a text after its start (`fastest_figures`)."""
    env = runtime_venv_env()
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        first_line = out / "first_line.txt"
        with open(path, encoding="utf-8") as lines:
            first_line.write_text(next(lines), encoding="utf-8")
        commands = {}
        for size, source in (("all", path), ("one", first_line)):
            (out / size).mkdir()  # each size its own outputs, counted below
            for name, command in classify_commands(venv, source, out / size, fasttext_model).items():
                commands[name, size] = command
        for command in commands.values():
            child_times(command, env, out)
        texts = {name: Path(command[-1]).read_text(encoding="utf-8").count("\n") for name, command in commands.items()}
        times: dict[tuple[str, str], list[float]] = {key: [] for key in commands}
        for _ in range(repeats):
            for key, command in commands.items():
                times[key].append(child_times(command, env, out)[0])
    medians = {key: statistics.median(values) for key, values in times.items()}
    names = [name for name, size in commands if size == "all"]
    found = {
        "texts": {name: texts[name, "all"] for name in names},
        "seconds": {name: medians[name, "all"] for name in names},
        "start_seconds": {name: medians[name, "one"] for name in names},
        "runs": {f"{name} ({size})": [round(v, 3) for v in values] for (name, size), values in times.items()},
        "numba_in_venv": "green-nlp classify --engine numba" in names,
    }
    return {**found, **fastest_figures(found)}


def fastest_figures(found: dict[str, Any]) -> dict[str, Any]:
    """Each command's fastest start (its fastest first-line run) and CPU-µs a text after it (its fastest
    whole run minus that start), from `whole_classifies`' runs. Why the fastest: other jobs only ever add
    CPU time, and they added it unevenly: the fastText script's start, which loads an 800 MB table, took
    0.53-1.50 CPU-s within one run of five on a shared AMD EPYC (up to 2.28 in a trial run), as much as
    its whole per-text time on 58,272 lines, so medians put it at 0.1-4 µs a text in trial runs where the
    fastest runs gave 12-15 µs."""
    runs, texts = found["runs"], found["texts"]
    starts = {name: min(runs[f"{name} (one)"]) for name in texts}
    per_text = {name: (min(runs[f"{name} (all)"]) - starts[name]) / max(texts[name] - 1, 1) * 1e6 for name in texts}
    return {"fastest_start_seconds": starts, "us_per_text_after_start": per_text}


def numba_break_even(found: dict[str, Any]) -> Optional[float]:
    """Lines from which `--engine numba` takes less CPU than the default engine in one process (its
    start costs more, each text less), from `fastest_figures` (both the starts and the per-text CPU
    from the fastest runs); None where it never does or was not run."""
    default, numba = "green-nlp classify", "green-nlp classify --engine numba"
    if numba not in found["seconds"]:
        return None
    saved = found["us_per_text_after_start"][default] - found["us_per_text_after_start"][numba]
    extra = found["fastest_start_seconds"][numba] - found["fastest_start_seconds"][default]
    return 1 + extra / saved * 1e6 if saved > 0 else None
