"""A refused `-s` folder says how to go on: which config keys differ, and `-f` to start afresh.

allennlp 2.10.1's `create_serialization_dir` refuses a non-empty folder without `--recover`, and with
`--recover` a folder whose `config.json` differs from the config given (its keys go to the log, not
to the error). After a run that failed on a bad config value, the corrected run is then refused both
ways and neither message mentions `-f` (`--force`), which deletes the folder and starts again. The
replacement re-raises the same `ConfigurationError` with that advice and the differing keys added.
A folder holding no checkpoint (its run stopped before the first epoch ended, e.g. on a missing
data file) is said to hold nothing to resume, so `-r` is not suggested where it cannot help.
"""

import functools
from pathlib import Path
from typing import Any

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

START_AFRESH = "-f (--force) deletes the folder and starts afresh with this config; or give another -s folder"


def differing_keys(given: dict[str, Any], recovered: dict[str, Any], most: int = 3) -> str:
    """The first `most` flat config keys whose values differ, as `key: given here, recovered there`."""
    keys = sorted(key for key in given.keys() | recovered.keys() if given.get(key, ...) != recovered.get(key, ...))
    shown = [f"{key}: {given.get(key, '(absent)')!r} here, {recovered.get(key, '(absent)')!r} there" for key in keys]
    more = f" and {len(keys) - most} more" if len(keys) > most else ""
    return "; ".join(shown[:most]) + more


# what allennlp's checkpointer writes (`model_state_e1_b0.th`, `training_state_e1_b0.th`) and its best model
CHECKPOINT_PATTERNS = ("model_state_e*.th", "training_state_e*.th", "best.th")


def holds_checkpoint(serialization_dir: str) -> bool:
    """Whether the run in the folder saved anything `-r` could resume from."""
    folder = Path(serialization_dir)
    return any(next(folder.glob(pattern), None) is not None for pattern in CHECKPOINT_PATTERNS)


def advice(message: str, params: Any, serialization_dir: str) -> str:
    """What to add to one of `create_serialization_dir`'s refusals ("" for the others)."""
    nothing_saved = (
        "It holds no checkpoint (its run stopped before the first epoch ended), so there is nothing to resume"
    )
    if "already exists and is not empty" in message:
        if not holds_checkpoint(serialization_dir):
            return f"{nothing_saved}: {START_AFRESH}."
        return f"-r (--recover) resumes the run it holds; {START_AFRESH}."
    if "does not match the configuration we're recovering from" in message:
        from allennlp.common import Params
        from allennlp.training.util import CONFIG_NAME

        recovered = Params.from_file(f"{serialization_dir}/{CONFIG_NAME}").as_flat_dict()
        differs = f"It differs in {differing_keys(params.as_flat_dict(), recovered)}"
        if not holds_checkpoint(serialization_dir):
            return f"{differs}. {nothing_saved}: {START_AFRESH}."
        return f"{differs}; {START_AFRESH}."
    return ""


def apply() -> bool:
    """Wrap allennlp's `create_serialization_dir`; True if this call installed the wrapper."""
    from allennlp.common.checks import ConfigurationError
    from allennlp.training import util as training_util

    original = training_util.create_serialization_dir
    if getattr(original, "_green_nlp_patched", False):
        return False

    @functools.wraps(original)
    def create_serialization_dir(params: Any, serialization_dir: Any, recover: bool, force: bool) -> None:
        try:
            original(params, serialization_dir, recover, force)
        except ConfigurationError as error:
            added = advice(str(error), params, str(serialization_dir))
            if not added:
                raise
            raise ConfigurationError(f"{error} {added}") from None

    create_serialization_dir._green_nlp_patched = True  # type: ignore[attr-defined]
    training_util.create_serialization_dir = create_serialization_dir
    return True
