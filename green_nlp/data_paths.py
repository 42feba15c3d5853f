"""Where green_nlp finds the real (large) data sets: one setting, read in place, never copied."""
import os
from pathlib import Path

DATA_ENV_VAR = "GREEN_NLP_DATA"
# The repository is expected to sit beside a `shared/data` folder; users point GREEN_NLP_DATA
# anywhere else.
_DEFAULT_DATA_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def data_dir() -> Path:
    """The configured data root (it may not exist: callers decide whether that is an error)."""
    return Path(os.environ.get(DATA_ENV_VAR, str(_DEFAULT_DATA_DIR))).expanduser()


def data_path(*parts: str) -> Path:
    return data_dir().joinpath(*parts)


def export_default_data_dir() -> None:
    """Make `std.extVar("GREEN_NLP_DATA")` usable in Jsonnet configs, spelled one way only.

    AllenNLP passes the environment to Jsonnet as external variables, and Jsonnet has no default
    for a missing one, so the plugin fills in the documented default on import. The value is made
    absolute because `allennlp train -r` refuses a run whose resolved config differs from the saved
    one: `../shared/data` and the default would otherwise be two different data paths.
    """
    os.environ[DATA_ENV_VAR] = str(data_dir().resolve())
