"""Keep torch and allennlp out of the server process.

spaCy (the runtime's sentence splitter, displaCy) imports thinc, and thinc imports torch whenever
torch is installed, as it is in the training environment: half a gigabyte of memory and seconds of
start-up that a server running ONNX models never uses. thinc treats torch as optional (it catches
ImportError), so refusing the import here leaves spaCy working and the server light in either
environment.
"""

import importlib.abc
import sys
from collections.abc import Sequence
from typing import Any, Optional

BLOCKED = ("torch", "allennlp", "allennlp_models")


class _RefuseHeavyImports(importlib.abc.MetaPathFinder):
    """A meta-path finder that fails the import of BLOCKED packages and lets everything else through."""

    def __init__(self, command: str = "green-nlp serve") -> None:
        self.command = command

    def find_spec(self, fullname: str, path: Optional[Sequence[str]], target: Any = None) -> None:
        root = fullname.partition(".")[0]
        if root in BLOCKED:
            raise ModuleNotFoundError(
                f"{self.command} runs without {root} (the ONNX runtime only); {fullname} was refused", name=fullname
            )


def heavy_modules() -> list:
    """The BLOCKED packages already imported in this process."""
    return sorted(name for name in sys.modules if name.partition(".")[0] in BLOCKED)


def install(command: str = "green-nlp serve") -> None:
    """Refuse torch and allennlp from now on; fails if one is imported already (too late to keep out).
    `command` names the program in the refusal (the server, or green-nlp parse|tag|classify)."""
    loaded = heavy_modules()
    if loaded:
        raise RuntimeError(f"torch/allennlp already imported before the server started: {loaded[:5]}")
    if not any(isinstance(finder, _RefuseHeavyImports) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RefuseHeavyImports(command))
