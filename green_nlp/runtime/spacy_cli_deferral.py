"""Import spaCy without running its command-line package: what a `green-nlp parse|tag` process does
before its first `import spacy`.

Why: `spacy/__init__.py` imports `spacy.cli.info` (for `spacy.info`), and the `spacy.cli` package
imports every spaCy command with typer, weasel, rich and requests. That is about a quarter of a
CPU-second of the ~0.9 that importing spaCy and building a blank tokenizer cost, paid by a process
that parses a 2,000-sentence file in about 2 CPU-seconds and never runs a spaCy command.

What it changes, only in a process that calls `defer_spacy_cli()` before importing spaCy:
- `spacy.cli` is the real package, made from its own spec (so its `__path__` and submodules work),
  but its `__init__` runs on the first attribute the module lacks, not at import;
- `spacy.cli.info` is a stand-in holding only `info`, which loads the real package and calls the
  real `spacy.info` on first use.
spaCy's tokenizer, vocabulary and pipeline code are not touched; `import spacy.cli.<command>` and
`spacy.cli.<anything>` still give spaCy's own objects. No library offers this for spaCy, and
importlib's `LazyLoader` cannot: it runs the package as soon as the import system reads its
`__path__`, which the import of `spacy.cli.info` does.
"""

import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence
from typing import Any, Optional, cast

PACKAGE, INFO = "spacy.cli", "spacy.cli.info"


class _DeferredPackage(types.ModuleType):
    """`spacy.cli` before its `__init__` has run: the first attribute it lacks runs it."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # the import system's own probes (__all__, __getattr__ ...) stay cheap
            raise AttributeError(name)
        return getattr(_run_package(self), name)


def _run_package(package: types.ModuleType) -> types.ModuleType:
    """Run the real `spacy/cli/__init__.py` in `package` (once), with the real `spacy.cli.info`."""
    if isinstance(package, _DeferredPackage):
        cast(Any, package).__class__ = types.ModuleType
        if getattr(sys.modules.get(INFO), "_green_nlp_stand_in", False):
            del sys.modules[INFO]  # the package's `from .info import info` must load spaCy's own module
        loader = package.__spec__.loader.real  # type: ignore[union-attr]
        package.__spec__.loader = package.__loader__ = loader  # type: ignore[union-attr]
        loader.exec_module(package)
    return package


def info(*args: Any, **kwargs: Any) -> Any:
    """spaCy's `spacy.info`, loaded on first call."""
    _run_package(sys.modules[PACKAGE])
    from spacy.cli.info import info as spacy_info

    return spacy_info(*args, **kwargs)


class _DeferringLoader(importlib.abc.Loader):
    """Makes `spacy.cli` (a `_DeferredPackage`, `real` runs it later) or the `spacy.cli.info` stand-in."""

    def __init__(self, real: Optional[importlib.abc.Loader]) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[types.ModuleType]:
        return None  # the default module, filled in by exec_module

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__name__ == PACKAGE:
            module.__class__ = _DeferredPackage
        else:
            module.__doc__ = "spaCy's `spacy.cli.info`, loaded when `info` is first called."
            module.info = info  # type: ignore[attr-defined]
            module._green_nlp_stand_in = True  # type: ignore[attr-defined]


class _DeferringFinder(importlib.abc.MetaPathFinder):
    """Answers the first imports of `spacy.cli` and `spacy.cli.info`, then leaves `sys.meta_path`.
    A finder, not entries put in `sys.modules`, so the import system binds `spacy.cli` on `spacy`
    as it does for any submodule."""

    def find_spec(
        self, name: str, path: Optional[Sequence[str]], target: Optional[types.ModuleType] = None
    ) -> Optional[importlib.machinery.ModuleSpec]:
        if name not in (PACKAGE, INFO):
            return None
        real = importlib.machinery.PathFinder.find_spec(name, path)
        if real is None or real.loader is None:
            self.leave()
            return None
        if name == INFO:
            self.leave()
            return importlib.machinery.ModuleSpec(INFO, _DeferringLoader(None), origin=real.origin)
        spec = importlib.machinery.ModuleSpec(
            PACKAGE, _DeferringLoader(real.loader), origin=real.origin, is_package=True
        )
        spec.submodule_search_locations = real.submodule_search_locations
        spec.has_location = real.has_location
        return spec

    def leave(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


def defer_spacy_cli() -> bool:
    """Defer `spacy.cli` for this process; False (nothing done) where spaCy is already imported."""
    if "spacy" in sys.modules or any(isinstance(finder, _DeferringFinder) for finder in sys.meta_path):
        return False
    sys.meta_path.insert(0, _DeferringFinder())
    return True
