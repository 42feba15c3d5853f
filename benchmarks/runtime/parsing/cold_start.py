"""Cold start: process start to first output of `allennlp predict` against `green-nlp parse` /
`classify` (and the imports alone), in this venv and in a runtime-only venv."""

import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

from benchmarks.runtime.parsing.processes import measured_process
from benchmarks.runtime.parsing.settings import REPO_ROOT, runtime_venv_env, this_clone_env


def cold_start(commands: dict[str, list[str]], repeats: int = 3) -> dict[str, dict[str, Any]]:
    """Median of `repeats` timed runs of each command (round-robin), after one untimed run each
    that warms the file cache and measures the peak RSS."""

    def run(name: str, rss: bool = False) -> dict[str, Any]:
        if name.endswith("(runtime venv)"):  # outside the clone, so `python -c` cannot import its green_nlp
            return measured_process(commands[name], runtime_venv_env(), rss, cwd=Path(tempfile.gettempdir()))
        return measured_process(commands[name], this_clone_env(), rss)

    peak = {name: run(name, rss=True)["max_rss_mb"] for name in commands}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name in commands:
            runs[name].append(run(name))
    return {
        name: {
            "first_line_s": statistics.median(r["first_line_s"] for r in found),
            "exit_s": statistics.median(r["exit_s"] for r in found),
            "max_rss_mb": peak[name],
            "runs_first_line_s": [round(r["first_line_s"], 3) for r in found],
            "first_line": found[0]["stdout"].splitlines()[0][:200],
        }
        for name, found in runs.items()
    }


def venv_commands(bin_dir: Path) -> dict[str, list[str]]:
    """The commands a venv's bin folder offers (allennlp, green-nlp, python), by name."""
    return {name: str(bin_dir / name) for name in ("allennlp", "green-nlp", "python") if (bin_dir / name).exists()}


def cold_start_commands(
    archive: Path,
    folder: Path,
    one_line: Path,
    runtime_venv: Optional[Path] = None,
    classifier: Optional[tuple[Path, Path]] = None,
) -> dict[str, list[str]]:
    """name -> command: allennlp predict on the archive, green-nlp parse on the folder (int8 as
    shipped, and fp32), and the imports alone; the same green-nlp commands from a runtime-only
    venv when one is given. `import spacy` prints whether it imported torch (thinc imports torch
    whenever it is installed, so raw text makes green-nlp load torch in the training venv). With
    `classifier` (an n-gram DAN archive and its exported folder), the same pair for classification:
    `allennlp predict` against `green-nlp classify`."""
    found = venv_commands(Path(sys.executable).parent)
    if "allennlp" not in found or "green-nlp" not in found:
        sys.exit("cold start needs the `allennlp` and `green-nlp` commands beside this Python")
    found["python"] = sys.executable
    venvs = {"": found}
    if runtime_venv is not None:
        runtime = venv_commands(runtime_venv / "bin")
        if "green-nlp" in runtime and "python" in runtime:
            venvs[" (runtime venv)"] = runtime
        else:
            print(f"no green-nlp and python in {runtime_venv}/bin: runtime venv not timed", file=sys.stderr)
    commands = {
        "allennlp_predict": [
            found["allennlp"],
            "predict",
            str(archive),
            str(one_line),
            "--include-package",
            "green_nlp",
            "--silent",
            "--output-file",
            "/dev/stdout",
        ]
    }
    if classifier is not None:
        commands["allennlp_predict_classifier"] = [
            found["allennlp"],
            "predict",
            str(classifier[0]),
            str(one_line),
            "--include-package",
            "green_nlp",
            "--silent",
            "--output-file",
            "/dev/stdout",
        ]
    for suffix, bins in venvs.items():
        for precision in ("int8", "fp32"):
            commands[f"green_nlp_parse_{precision}{suffix}"] = [
                bins["green-nlp"],
                "parse",
                str(folder),
                str(one_line),
                "--precision",
                precision,
                "--threads",
                "1",
            ]
        if classifier is not None:
            commands[f"green_nlp_classify{suffix}"] = [
                bins["green-nlp"],
                "classify",
                str(classifier[1]),
                str(one_line),
                "--threads",
                "1",
            ]
        commands[f"import_green_nlp_runtime{suffix}"] = [
            bins["python"],
            "-c",
            "import sys, green_nlp.runtime; print('green_nlp from', 'this clone' if "
            "green_nlp.runtime.__file__.startswith(sys.argv[1]) else 'an installed copy')",
            str(REPO_ROOT),
        ]
        commands[f"import_spacy{suffix}"] = [
            bins["python"],
            "-c",
            "import sys, spacy; print('torch imported:', 'torch' in sys.modules)",
        ]
    return commands


def cold_start_ratios(cold: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """allennlp predict's time to its first line over green-nlp parse's, from this run's medians."""
    ratios = {}
    for name in cold:
        baseline = (
            "allennlp_predict"
            if name.startswith("green_nlp_parse_")
            else "allennlp_predict_classifier"
            if name.startswith("green_nlp_classify")
            else None
        )
        if baseline in cold:
            a, b = cold[baseline]["first_line_s"], cold[name]["first_line_s"]
            ratios[f"{baseline}_vs_{name}"] = {
                "numerator": baseline,
                "denominator": name,
                "numerator_s": a,
                "denominator_s": b,
                "ratio": a / b,
            }
    return ratios
