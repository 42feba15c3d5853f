"""What the shipped models' recipes (scripts/pretrained_*.py) share: where things go, training with
`allennlp train` (resumed with -r), the size budget, and writing the folder and the results."""

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the recipes use the benchmarks' helpers

PRETRAINED = REPO / "pretrained"
RESULTS = REPO / "benchmarks" / "results"
AGREEMENT_FOR_INT8 = 0.995  # ship the int8 graph alone where it agrees this often with fp32
FOLDER_BUDGET_BYTES = 12 * 1000 * 1000


def data_dir() -> Path:
    sys.path.insert(0, str(REPO))
    from green_nlp.settings import data_dir as configured

    return configured().resolve()


def allennlp_bin() -> str:
    return str(Path(sys.executable).parent / "allennlp")


def wait_cpu_seconds(process: "subprocess.Popen[Any]") -> float:
    """Wait for `process` and return the CPU seconds (user + system) it used. Why not wall time: the
    recipes' runs share a loaded 2-core machine, where a one-thread run's wall time overstates its
    CPU time by the share other jobs took."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def add_cpu_seconds(ledger: Path, step: str, seconds: float, resumed: bool = True) -> None:
    """Book `seconds` to `step` in a JSON ledger of CPU seconds per step: added to what the step
    already spent when it `resumed`, else in place of it (the step was made again from nothing)."""
    spent = json.loads(ledger.read_text(encoding="utf-8")) if ledger.exists() else {}
    spent[step] = (spent.get(step, 0.0) if resumed else 0.0) + seconds
    ledger.write_text(json.dumps(spent, indent=2) + "\n", encoding="utf-8")


def train(
    config: str,
    run_dir: Path,
    overrides: Optional[dict[str, Any]] = None,
    variables: Optional[dict[str, str]] = None,
    cpu_ledger: Optional[Path] = None,
) -> Path:
    """`allennlp train config` into run_dir on one thread (resumed with -r when it holds a run), with
    `variables` as Jsonnet external variables (AllenNLP reads them from the environment); returns the
    archive. A finished run (metrics.json beside its archive) is not retrained. With `cpu_ledger`,
    the run's CPU seconds are added there under the run folder's name."""
    archive = run_dir / "model.tar.gz"
    if archive.exists() and (run_dir / "metrics.json").exists():
        return archive
    command = [allennlp_bin(), "train", config, "-s", str(run_dir), "--include-package", "green_nlp"]
    if overrides:
        command += ["-o", json.dumps(overrides)]
    resumed = (run_dir / "config.json").exists()
    if resumed:
        command.append("-r")
    env = dict(
        os.environ,
        **(variables or {}),
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
    )
    process = subprocess.Popen(command, cwd=REPO, env=env)
    seconds = wait_cpu_seconds(process)
    if cpu_ledger is not None:
        add_cpu_seconds(cpu_ledger, run_dir.name, seconds, resumed)
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, command)
    return archive


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.iterdir() if path.is_file())


def one_graph_bytes(folder: Path, precision: str) -> int:
    """An exported folder's size once the other graph is dropped (what ships with `precision`)."""
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    other = "fp32" if precision == "int8" else "int8"
    return folder_bytes(folder) - sum((folder / files[other]).stat().st_size for files in _graph_files(meta))


def hardware() -> str:
    """The benchmarks' description of this machine (CPU, cores, torch)."""
    sys.path.insert(0, str(REPO))
    from benchmarks.common import hardware_description

    return hardware_description()


def _graph_files(meta: dict[str, Any]) -> list[dict[str, str]]:
    """The folder's precision -> graph maps: the main graph's, and a split parser's character encoder's."""
    encoder = ((meta.get("inputs") or {}).get("characters") or {}).get("encoder")
    return [meta["files"]] + ([encoder["files"]] if encoder else [])


def keep_one_graph(folder: Path, precision: str) -> None:
    """Drop the other precision's graphs and say so in green_model.json."""
    meta_path = folder / "green_model.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    dropped = "fp32" if precision == "int8" else "int8"
    for files in _graph_files(meta):
        (folder / files.pop(dropped)).unlink()
    meta_path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def finish_folder(name: str, folder: Path, card: Path, figures: dict[str, Any]) -> None:
    """Put the card's figures into green_model.json, check the budget, replace pretrained/<name>."""
    from green_nlp.export.common import read_model_card
    from green_nlp.runtime.model_folder import record_file_hashes

    meta_path = folder / "green_model.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["card"] = read_model_card(card)
    meta_path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    record_file_hashes(folder)  # the folder's final files (one graph, the card), checked at every load
    figures["folder_bytes"] = folder_bytes(folder)
    if figures["folder_bytes"] > FOLDER_BUDGET_BYTES:
        raise SystemExit(f"{name}: {figures['folder_bytes']:,} bytes is over the 12 MB budget")
    target = PRETRAINED / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(folder, target)


def write_card_file(folder: Path, name: str, lines: list[str], rebuild_note: str) -> Path:
    """The model card `README.md`: `lines`, then how to rebuild the model."""
    rebuild = ["## Rebuild", "```bash", f"python scripts/build_pretrained.py {name}   # {rebuild_note}", "```", ""]
    card = folder / "README.md"
    card.write_text("\n".join([*lines, *rebuild]), encoding="utf-8")
    return card


def results_stem(name: str) -> Path:
    return RESULTS / f"pretrained_{name.replace('-', '_')}"


def write_results(figures: dict[str, Any], markdown: str) -> None:
    stem = results_stem(figures["name"])
    stem.with_suffix(".json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    stem.with_suffix(".md").write_text(markdown, encoding="utf-8")
    print(markdown)


def rewrite_tables(name: str, render: Callable[[dict[str, Any]], str]) -> None:
    """Rewrite a shipped model's Markdown table from its saved results JSON."""
    figures = json.loads(results_stem(name).with_suffix(".json").read_text(encoding="utf-8"))
    write_results(figures, render(figures))
