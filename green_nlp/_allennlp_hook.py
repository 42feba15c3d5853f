"""Register green_nlp's AllenNLP components when allennlp needs them, not at `import green_nlp`.

`import green_nlp` must stay cheap (the ONNX runtime and spaCy's entry points import it), yet code
that does `import green_nlp` and only later `Predictor.from_path(...)` expects the green components
to be registered, as they were when the package imported everything eagerly. Registering in the
middle of an import can meet half-imported green modules, so the hook waits one step more: once the
`allennlp` package has been imported, AllenNLP's registry lookups (`Registrable.resolve_class_name`,
`list_available`, through which `by_name` and `from_params` go) register green_nlp on first use.
Python has no post-import hook of its own, hence the `sys.meta_path` finder.
"""

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any, Callable, Dict, Optional, Sequence

_LOOKUPS = ("resolve_class_name", "list_available")


def _green_import_in_progress() -> bool:
    """True while any green_nlp module is still executing its import (registering now could meet it half-done)."""
    return any(
        name.startswith("green_nlp.") and getattr(getattr(module, "__spec__", None), "_initializing", False)
        for name, module in list(sys.modules.items())
    )


def register_on_first_lookup(register: Callable[[], None]) -> None:
    """Wrap AllenNLP's registry lookups so that the first one (outside an import) calls `register`."""
    from allennlp.common.registrable import Registrable

    originals: Dict[str, Any] = {name: Registrable.__dict__[name] for name in _LOOKUPS}

    def restore() -> None:
        for name, original in originals.items():
            setattr(Registrable, name, original)

    def wrapped(name: str) -> classmethod:
        original = originals[name].__func__

        def lookup(cls: type, *args: Any, **kwargs: Any) -> Any:
            if not _green_import_in_progress():
                restore()
                register()
            return original(cls, *args, **kwargs)

        return classmethod(lookup)

    for name in _LOOKUPS:
        setattr(Registrable, name, wrapped(name))


class _ThenCall(importlib.abc.Loader):
    """Runs the real loader of `allennlp`, then the callback."""

    def __init__(self, inner: importlib.abc.Loader, callback: Callable[[], None]) -> None:
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


class AllennlpImportHook(importlib.abc.MetaPathFinder):
    """A `sys.meta_path` finder that fires once, for the top-level `allennlp` package."""

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
        spec.loader = _ThenCall(spec.loader, lambda: register_on_first_lookup(self.register))
        return spec


def install(register: Callable[[], None]) -> None:
    if not any(isinstance(finder, AllennlpImportHook) for finder in sys.meta_path):
        sys.meta_path.insert(0, AllennlpImportHook(register))


def remove() -> None:
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, AllennlpImportHook)]
