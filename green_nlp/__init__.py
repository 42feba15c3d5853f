"""green_nlp: cheaper NLP models, as an AllenNLP plugin and as a light ONNX runtime.

`import green_nlp` alone is cheap: it imports neither torch nor allennlp, so the runtime
(`green_nlp.load`, the `green-nlp` command, `green_nlp.serve`) and spaCy's entry points start fast.
It does two light things: it exports the settings the Jsonnet configs read (`green_nlp.settings`:
`GREEN_NLP_DATA`, `GREEN_NLP_MINILM`, `LDNET_*`), and it arranges for `register()` to run.

`register()` imports `green_nlp.plugin`, which applies green_nlp's patches to allennlp
(`green_nlp.patches`) and registers every AllenNLP component (readers, models, predictors,
callbacks, optimizers, subcommands). It runs by itself whenever allennlp is in the same process:
when AllenNLP imports green_nlp as a plugin (`--include-package green_nlp`, `.allennlp_plugins`), and
when a program imports green_nlp first and allennlp afterwards (`green_nlp._allennlp_hook`).
"""

import sys
from typing import Any

from green_nlp import _allennlp_hook
from green_nlp.settings import export_defaults as _export_defaults

__version__ = "0.2.0"


def register() -> None:
    """Register every AllenNLP component of green_nlp (imports torch and allennlp; idempotent)."""
    _allennlp_hook.remove()
    import green_nlp.plugin  # noqa: F401  (registration happens on import)


def load(name_or_path: str, **options: Any) -> Any:
    """A ready model for the runtime: a shipped model's name or an exported folder.

    See `green_nlp.runtime.load` for the options (precision, threads).
    """
    from green_nlp.runtime import load as load_model

    return load_model(name_or_path, **options)


# Exported before any config can be read; the module is light (os and pathlib only).
_export_defaults()

if "allennlp" in sys.modules:
    register()
else:
    _allennlp_hook.install(register)
