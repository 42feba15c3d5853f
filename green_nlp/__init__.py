"""green_nlp: cheaper NLP models, as an AllenNLP plugin and as a light ONNX runtime.

`import green_nlp` alone is cheap: it imports neither torch nor allennlp, so the runtime
(`green_nlp.load`, the `green-nlp` command) and spaCy's entry points start fast.

The AllenNLP components (readers, models, predictors, callbacks, subcommands) are registered by
`green_nlp.register()`. It runs by itself whenever allennlp is in the same process: when AllenNLP
imports green_nlp as a plugin (`--include-package green_nlp`, `.allennlp_plugins`), and when a
program imports green_nlp first and allennlp afterwards.
"""
import sys
from typing import Any

from green_nlp import _allennlp_hook
from green_nlp.data_paths import export_default_data_dir as _export_default_data_dir
from green_nlp.pretrained_paths import export_minilm_dir as _export_minilm_dir

__version__ = "0.2.0"


def register() -> None:
    """Register every AllenNLP component of green_nlp (imports torch and allennlp; idempotent)."""
    _allennlp_hook.remove()
    import green_nlp.plugin  # noqa: F401


def load(name_or_path: str, **options: Any) -> Any:
    """A ready model for the runtime: a shipped model's name or an exported folder.

    See `green_nlp.runtime.load` for the options (precision, threads).
    """
    from green_nlp.runtime import load as load_model

    return load_model(name_or_path, **options)


# The settings the Jsonnet configs read (`std.extVar`), exported before any config can be read;
# both modules are light (os and pathlib only).
_export_default_data_dir()
_export_minilm_dir()

if "allennlp" in sys.modules:
    register()
else:
    _allennlp_hook.install(register)
