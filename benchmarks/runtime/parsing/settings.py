"""What the runtime benchmark compares and how: the five paths, batch sizes and speed settings,
the aims, and the one-thread environment of every child process. Standard library only: the
ONNX memory child imports this without torch."""

import os
from collections.abc import Callable
from pathlib import Path
from typing import Optional

from benchmarks.common import REPO as REPO_ROOT

DEFAULT_ARCHIVE = Path("runs/shipped/en_ewt_parser/model.tar.gz")
TEST_FILE_PARTS = ("ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
FORMS = ("allennlp_predictor", "torch", "torch_int8", "onnx_fp32", "onnx_int8")
TORCH_FORMS = FORMS[:3]
BATCH_SIZES = (1, 32)
# speed setting -> (batch size, sort all sentences by length before batching)
SETTINGS = {"b1": (1, False), "b32": (32, False), "b32-sorted": (32, True)}
PARTS = ("cold_start", "speed", "memory", "sizes")
WARMUP_SENTENCES = 64
ONE_THREAD_ENV = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
AIMS = {"green_nlp_cold_start_s": 2.0, "cold_start_speedup": 5.0, "onnx_int8_vs_torch_int8": 1.3}
# one parsed sentence: (heads, relations, UPOS or None)
Parsed = tuple[list[int], list[str], Optional[list[str]]]
ParseBatch = Callable[[list[list[str]]], list[Parsed]]


def this_clone_env() -> dict[str, str]:
    """The environment of a child process: one thread, unbuffered output, this clone's green_nlp first.
    Run as `python -m` from the root, this process imports this clone's green_nlp; a child (a console
    script such as `allennlp`) would import the shared venv's editable install, which points at the
    clone that ran the set-up last."""
    path = os.pathsep.join([str(REPO_ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    return {**os.environ, **ONE_THREAD_ENV, "PYTHONPATH": path}


def runtime_venv_env() -> dict[str, str]:
    """A runtime-only venv's child: its own installed green_nlp, one thread."""
    env = {**os.environ, **ONE_THREAD_ENV}
    env.pop("PYTHONPATH", None)
    return env


def shown_path(path: Path) -> str:
    """A path for the results files: relative to the repository when inside it, else its name only
    (no absolute path of this machine goes into the repository)."""
    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return Path(path).name
