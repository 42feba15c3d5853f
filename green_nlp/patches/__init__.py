"""Everything green_nlp changes in allennlp's behaviour, applied by one `apply_all()`.

allennlp 2.10.1 (2022, its last release) runs here on a torch, numpy and Python it never saw, and a
few of its behaviours are unsafe or lossy. Each module below fixes one of them, narrowly: it exposes
`WRITTEN_FOR` (the allennlp release its replacement code was read against, see `versions`) and
`apply() -> bool` (idempotent; True when that call changed something).

- `lr_scheduler`: `reduce_on_plateau` builds on torch without `ReduceLROnPlateau(verbose=...)`.
- `numpy_safe_globals`: training states holding numpy scalars load with torch's `weights_only=True`.
- `crash_safe_checkpoints`: a killed save never leaves a truncated newest checkpoint.
- `autocast_warning`: allennlp's per-epoch `torch.cuda.amp.autocast` FutureWarning is dropped.
- `ddp_metrics`: attachment scores and span F1 add up across DDP workers.
- `ddp_test_evaluation`: `evaluate_on_test` after DDP training runs over the whole test file.
- `archive_extraction`: `model.tar.gz` extracted with tarfile's `data` filter (required: never skipped).
- `weights_only_check`: a loud warning when the environment turns `weights_only` loading off.
- `predict_per_line`: `allennlp predict` with green predictors survives bad lines.
- `output_over_input`: `allennlp predict` and `evaluate` refuse an output file that is a file they read.
- `quiet_logging`: `--silent` also silences INFO logging.
- `config_keys`: a misspelt config key is an error naming it and the closest valid key.
- `serialization_dir_advice`: a refused `-s` folder names the differing config keys and `-f`.
- `module_setting_errors`: a value a torch module refuses is an error naming its config section.
- `setting_ranges`: a trainer's `grad_norm`, `grad_clipping` or `num_epochs`, a batch sampler's
  size, `max_vocab_size` of 0 or below and a learning rate of 0 with no scheduler are refused
  naming the config key (they trained the wrong way, trained nothing or crashed late).
- `choice_suggestions`: a misspelt registered name (`"type": "lstmm"`) names the closest ones.

`green_nlp.plugin` calls `apply_all()` once, before any component is registered; that covers
`--include-package green_nlp`, `.allennlp_plugins`, `green_nlp.register()` and `green-nlp`
commands that need allennlp. Importing this package alone imports neither torch nor allennlp.

Two patches must act before that, so their callers apply them by name (`apply_one`):

- `registry_lookup`: AllenNLP's registry lookups register green_nlp first, for programs that
  import green_nlp before allennlp (`green_nlp._allennlp_hook`, when allennlp is imported);
- `nltk_download`: allennlp-models' corpus downloads stay quiet in `green-nlp`'s AllenNLP commands
  (`green_nlp.cli`, before allennlp-models is imported).
"""

import importlib
import logging
from typing import Any

from green_nlp.patches.versions import check

logger = logging.getLogger(__name__)

# In the order they are applied (the archive check first: nothing should load before it is safe).
PATCHES = (
    "archive_extraction",
    "weights_only_check",
    "lr_scheduler",
    "numpy_safe_globals",
    "crash_safe_checkpoints",
    "autocast_warning",
    "ddp_metrics",
    "ddp_test_evaluation",
    "predict_per_line",
    "output_over_input",
    "quiet_logging",
    "config_keys",
    "serialization_dir_advice",
    "module_setting_errors",
    "setting_ranges",
    "choice_suggestions",
)

# Applied by name where they are needed (patch -> who applies it), not by apply_all().
APPLIED_ELSEWHERE: dict[str, str] = {
    "registry_lookup": "green_nlp._allennlp_hook",
    "nltk_download": "green_nlp.cli",
}

_APPLIED: list[str] = []


def apply_all() -> list[str]:
    """Apply every patch whose allennlp version matches; returns the names this call changed something for.

    A patch written for another allennlp release is skipped with a warning, or is an error
    (`PatchVersionError`) when it is a safety fix.
    """
    applied = []
    for name in PATCHES:
        module = importlib.import_module(f"green_nlp.patches.{name}")
        if check(name, module.WRITTEN_FOR) and module.apply():
            applied.append(name)
    _APPLIED.extend(applied)
    if applied:
        logger.debug("green_nlp patches applied: %s", ", ".join(applied))
    return applied


def apply_one(name: str, *args: Any) -> bool:
    """Apply one of `APPLIED_ELSEWHERE` (`apply(*args)`) if its package version matches; True if it changed anything."""
    if name not in APPLIED_ELSEWHERE:
        raise ValueError(f"{name!r} is not a patch applied by name; those are {sorted(APPLIED_ELSEWHERE)}")
    module = importlib.import_module(f"green_nlp.patches.{name}")
    if not (check(name, module.WRITTEN_FOR) and module.apply(*args)):
        return False
    _APPLIED.append(name)
    logger.debug("green_nlp patch applied: %s", name)
    return True


def applied() -> list[str]:
    """Every patch applied in this process so far."""
    return list(_APPLIED)
