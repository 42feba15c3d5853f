"""Say loudly when the environment makes allennlp's `torch.load` calls unpickle arbitrary objects.

Every `torch.load` in allennlp 2.10.1 leaves `weights_only` unset, which on torch >= 2.6 means
`weights_only=True`: a `weights.th` / `best.th` / training state holding anything but tensors and
allow-listed types is refused before any of its code runs. green_nlp itself unpickles nothing
(tests/safety_test.py checks that any `torch.load` in it passes `weights_only=True`). The one way to
lose that is `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`, which flips every unset call back to full
unpickling; this check changes nothing, it warns.
"""

import logging
import os

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

logger = logging.getLogger(__name__)

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

_UNSAFE_ENV = "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"


def weights_only_disabled() -> bool:
    """True when the environment makes torch unpickle arbitrary objects in unset `torch.load` calls."""
    return os.environ.get(_UNSAFE_ENV, "0").lower() in ("1", "y", "yes", "true")


def apply() -> bool:
    """Warn when `weights_only` loading is switched off; changes nothing, so always False."""
    if weights_only_disabled():
        logger.warning(
            "%s is set: allennlp's torch.load calls will unpickle arbitrary objects from archives "
            "and checkpoints. Unset it unless every archive you load is your own.",
            _UNSAFE_ENV,
        )
    return False
