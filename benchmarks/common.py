"""Helpers shared by the benchmark scripts: where things are, hardware description and result files.
Only the standard library at import: the runtime benchmark's torch-free child processes import it."""

import json
import os
import subprocess
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parent
REPO = BENCHMARKS.parent
RESULTS = BENCHMARKS / "results"


def git_bytes(*args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True).stdout


def committed_folder(name: str, rev: str, target: Path) -> Path:
    """`pretrained/<name>/` as committed at `rev`, written into `target`: a release measured beside
    the model that replaced it, in the same run."""
    target.mkdir(parents=True, exist_ok=True)
    for path in git_bytes("ls-tree", "--name-only", rev, f"pretrained/{name}/").decode().split():
        (target / Path(path).name).write_bytes(git_bytes("show", f"{rev}:{path}"))
    return target


def hardware_description() -> str:
    import torch

    from benchmarks.machine import cpu_kind

    return f"{cpu_kind()}, {os.cpu_count()} logical CPUs, torch {torch.__version__}"


def _cell(value: Any) -> str:
    if isinstance(value, float):
        if abs(value) < 1:
            return f"{value:,.3f}"
        return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.1f}"  # scores keep two decimals
    if isinstance(value, int):
        return f"{value:,}"
    return "" if value is None else str(value)


def markdown_table(rows: dict[str, dict[str, Any]], columns: list[str], first_column: str = "model") -> str:
    lines = [f"| {first_column} | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for name, row in rows.items():
        lines.append(f"| {name} | " + " | ".join(_cell(row.get(c)) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def earlier_treebanks(results_file: Path, replace: bool) -> dict[str, Any]:
    """The per-treebank figures of an earlier results file, kept unless `replace`: treebanks are
    measured in separate runs, as their models get trained (and after their runs are gone)."""
    if replace or not results_file.exists():
        return {}
    return json.loads(results_file.read_text()).get("treebanks", {})


def write_results(
    out_dir: Path,
    name: str,
    results: dict[str, Any],
    rows: dict[str, dict[str, Any]],
    columns: list[str],
    note: str,
    first_column: str = "model",
) -> None:
    """Save `<name>.json` (everything) and `<name>.md` (a short table), and print the table."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{name}.json").write_text(json.dumps(results, indent=2) + "\n")
    table = markdown_table(rows, columns, first_column) + f"\n{note}\n"
    (out_dir / f"{name}.md").write_text(table)
    print(table)


def summarize_seeds(runs: dict[Any, dict[str, float]]) -> dict[str, Any]:
    """Mean, spread and range of each split's accuracy over seed runs ({seed: {"dev": x, "test": y}}); a split
    missing from any run (e.g. one scored earlier on test only) is left out."""
    import statistics

    row: dict[str, Any] = {"seeds": list(runs)}
    for split in ("dev", "test"):
        if any(runs[seed].get(split) is None for seed in runs):
            continue
        values = [runs[seed][split] for seed in runs]
        row[f"{split}_mean"] = statistics.mean(values)
        row[f"{split}_stdev"] = statistics.stdev(values) if len(values) > 1 else 0.0
        row[f"{split}_min"], row[f"{split}_max"] = min(values), max(values)
        row[split] = values
    return row
