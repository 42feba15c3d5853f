"""Peak memory of each path, each in a process of its own (`--memory-child` of the entry point).
Standard library only at the top: the ONNX child must not import torch."""

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

from benchmarks.runtime.parsing.gold import chunks, read_gold
from benchmarks.runtime.parsing.paths import load_paths
from benchmarks.runtime.parsing.processes import measured_process
from benchmarks.runtime.parsing.settings import REPO_ROOT, this_clone_env

ENTRY_POINT = "benchmarks.runtime.parser"  # the module whose --memory-child runs one path


def memory_child(form: str, archive: Path, folder: Path, test_file: Path, sentences: Optional[int]) -> None:
    """In a process of its own: load `form`, parse the sentences at batch 32, report what was imported."""
    words = [s["words"] for s in read_gold(test_file, sentences)]
    parse = load_paths(archive, folder, [form])[form][32]
    loaded = peak_rss_so_far_mb()
    parsed = sum(len(parse(list(batch))) for batch in chunks(words, 32))
    import green_nlp

    print(
        json.dumps(
            {
                "form": form,
                "sentences": parsed,
                "loaded_peak_rss_mb": loaded,
                "green_nlp_from_this_clone": Path(green_nlp.__file__).resolve().is_relative_to(REPO_ROOT),
                "torch_imported": "torch" in sys.modules,
                "allennlp_imported": "allennlp" in sys.modules,
            }
        )
    )


def peak_rss_so_far_mb() -> Optional[float]:
    """This process's peak RSS so far (VmHWM), None where /proc is not there."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def peak_memory(
    forms: Sequence[str], archive: Path, folder: Path, test_file: Path, sentences: Optional[int]
) -> dict[str, dict[str, Any]]:
    """Peak RSS (MB, `os.wait4`'s ru_maxrss) of a process that loads one path and parses the sentences."""
    env = this_clone_env()
    found = {}
    for form in forms:
        command = [
            sys.executable,
            "-m",
            ENTRY_POINT,
            "--memory-child",
            form,
            "--archive",
            str(archive),
            "--folder",
            str(folder),
            "--test-file",
            str(test_file),
        ]
        if sentences:
            command += ["--sentences", str(sentences)]
        run = measured_process(command, env, rss=True)
        found[form] = {
            "max_rss_mb": run["max_rss_mb"],
            "seconds": run["exit_s"],
            **json.loads(run["stdout"].strip().splitlines()[-1]),
        }
    return found
