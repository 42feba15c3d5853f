"""Register green_nlp on AllenNLP's first registry lookup, for programs that import green_nlp first.

`import green_nlp` stays cheap (no allennlp), yet code that does `import green_nlp` and only later
`Predictor.from_path(...)` expects the green components to be registered. Registering in the middle
of an import can meet half-imported green modules, so once `allennlp` has been imported
(`green_nlp._allennlp_hook` sees that) this patch wraps AllenNLP's registry lookups
(`Registrable.resolve_class_name` and `list_available`, through which `by_name` and `from_params`
go): the first one made outside an import restores both originals and calls `register`.

Skipped on another allennlp release (its lookups may have other names or signatures): a program
that imports green_nlp before allennlp then calls `green_nlp.register()` itself.
"""

import sys
from collections.abc import Callable
from typing import Any

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

LOOKUPS = ("resolve_class_name", "list_available")


def _green_import_in_progress() -> bool:
    """True while any green_nlp module is still executing its import (registering now could meet it half-done)."""
    return any(
        name.startswith("green_nlp.") and getattr(getattr(module, "__spec__", None), "_initializing", False)
        for name, module in list(sys.modules.items())
    )


def apply(register: Callable[[], None]) -> bool:
    """Wrap the lookups so that the first one (outside an import) calls `register`; False if already wrapped."""
    from allennlp.common.registrable import Registrable

    originals: dict[str, Any] = {name: Registrable.__dict__[name] for name in LOOKUPS}
    if any(getattr(original.__func__, "_green_register", None) for original in originals.values()):
        return False

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

        lookup._green_register = register  # type: ignore[attr-defined]
        return classmethod(lookup)

    for name in LOOKUPS:
        setattr(Registrable, name, wrapped(name))
    return True
