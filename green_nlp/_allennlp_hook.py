"""Register green_nlp's AllenNLP components when allennlp needs them, not at `import green_nlp`.

`import green_nlp` must stay cheap (the ONNX runtime and spaCy's entry points import it), yet code
that does `import green_nlp` and only later `Predictor.from_path(...)` expects the green components
to be registered, as they were when the package imported everything eagerly. This module only
notices the moment: a `sys.meta_path` finder (Python has no post-import hook of its own) waits for
the `allennlp` package to be imported and then applies `green_nlp.patches.registry_lookup`, the
patch that registers green_nlp on AllenNLP's first registry lookup (with the version check every
patch has).
"""

import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Optional, cast

if TYPE_CHECKING:  # importlib.abc imports importlib.resources: ~35 ms of the runtime's ~0.45 s start
    from importlib.abc import Loader


def _patch_lookups(register: Callable[[], None]) -> None:
    """Imported only now: `green_nlp.patches` reads package versions (importlib.metadata, ~60 ms)."""
    from green_nlp.patches import apply_one

    apply_one("registry_lookup", register)


class _ThenCall:
    """Runs the real loader of `allennlp`, then the callback (a loader by protocol: `create_module`
    and `exec_module`, which is all the import system calls)."""

    def __init__(self, inner: "Loader", callback: Callable[[], None]) -> None:
        self.inner = inner
        self.callback = callback

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[ModuleType]:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        # The module keeps the real loader, so resources and reloads behave as without the hook.
        module.__loader__ = self.inner
        if module.__spec__ is not None:
            module.__spec__.loader = self.inner
        self.inner.exec_module(module)
        self.callback()


class AllennlpImportHook:
    """A `sys.meta_path` finder (by protocol: `find_spec`) that fires once, for the top-level
    `allennlp` package."""

    def __init__(self, register: Callable[[], None]) -> None:
        self.register = register

    def find_spec(
        self, fullname: str, path: Optional[Sequence[str]] = None, target: Optional[ModuleType] = None
    ) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname != "allennlp":
            return None
        remove()
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = cast("Loader", _ThenCall(spec.loader, lambda: _patch_lookups(self.register)))
        return spec


def install(register: Callable[[], None]) -> None:
    if not any(isinstance(finder, AllennlpImportHook) for finder in sys.meta_path):
        sys.meta_path.insert(0, AllennlpImportHook(register))


def remove() -> None:
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, AllennlpImportHook)]
