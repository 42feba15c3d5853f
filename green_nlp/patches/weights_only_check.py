"""Refuse pickled code in archives with green_nlp's own message, and say loudly when the environment
makes allennlp's `torch.load` calls unpickle arbitrary objects.

Every `torch.load` in allennlp 2.10.1 leaves `weights_only` unset, which on torch >= 2.6 means
`weights_only=True`: a `weights.th` / `best.th` / training state holding anything but tensors and
allow-listed types is refused before any of its code runs. green_nlp itself unpickles nothing
(tests/safety_test.py checks that any `torch.load` in it passes `weights_only=True`). The one way to
lose that is `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`, which flips every unset call back to full
unpickling; this check warns about it.

torch's own refusal names neither the file nor the archive, and tells the user to retry with
`weights_only=False`, i.e. to run the code. `apply` wraps allennlp's `_load_model` (every archive
and `--weights-file` load) and `Checkpointer.load_checkpoint` (`allennlp train -r`) so that the
refusal is a `PickledCodeRefused` naming the archive (or file) and saying that green_nlp will not
load pickled code. The same wrapper turns the other ways an archive's model fails to build (weights
cut short, missing or not torch's, a vocabulary that does not fit them) into one `ConfigurationError`
naming the archive and member, where torch and allennlp named a temporary folder or nothing.
"""

import functools
import logging
import os
import pickle
import re
from collections.abc import Callable
from typing import Any, Optional

from green_nlp.patches.archive_extraction import archive_of
from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

logger = logging.getLogger(__name__)

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

_UNSAFE_ENV = "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"


def weights_only_disabled() -> bool:
    """True when the environment makes torch unpickle arbitrary objects in unset `torch.load` calls."""
    return os.environ.get(_UNSAFE_ENV, "0").lower() in ("1", "y", "yes", "true")


class PickledCodeRefused(pickle.UnpicklingError):
    """A weights file or training state holds pickled Python objects beyond tensors: not loaded."""


def refusal(source: str, error: Exception) -> PickledCodeRefused:
    """The message for `source` (an archive, a weights file or a serialization folder)."""
    wanted = re.search(r"Unsupported global: GLOBAL ([\w.]+)", str(error))
    what = f" (it asks for the Python object {wanted.group(1)})" if wanted else ""
    return PickledCodeRefused(
        f"{source} was refused: its weights hold pickled Python objects, not only tensors{what}. "
        "green_nlp will not load pickled code, which could run anything on this machine; load only "
        "archives you made or trust, or re-save the model's state_dict (tensors only) and archive it again"
    )


def _source_of(weights_path: str, serialization_dir: str) -> str:
    archive = archive_of(serialization_dir)
    inside = os.path.normpath(weights_path).startswith(os.path.normpath(serialization_dir) + os.sep)
    if archive is not None and inside:
        return f"archive {archive} ({os.path.basename(weights_path)})"
    return f"weights file {weights_path}"


def damaged(source: str, serialization_dir: str, error: Exception) -> Exception:
    """A `ConfigurationError` for a model that cannot be built from its archive's files (weights cut
    short, missing or not torch's, a vocabulary that does not fit the weights), naming the archive
    and its member instead of the temporary folder it was extracted to; one line."""
    from allennlp.common.checks import ConfigurationError

    reason = " ".join(str(error).split())
    if isinstance(error, pickle.UnpicklingError):  # torch's text advises unpickling it: never, here
        reason = "its bytes are not a weights file torch wrote"
    mismatch = re.search(r"size mismatch for [\w.]+: .*?(?=size mismatch for|$)", reason)
    if mismatch:  # torch lists every tensor; the first says what does not fit
        reason = f"its weights do not fit its vocabulary and config ({mismatch.group(0).strip()})"
    reason = reason.replace(os.path.normpath(serialization_dir) + os.sep, "")
    return ConfigurationError(
        f"{source} cannot be loaded: {type(error).__name__}: {reason[:300]}. It is damaged, or its files were "
        "changed after allennlp wrote it; train or archive the model again"
    )


def _named_load_model(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def load_model(config: Any, weights_path: str, serialization_dir: str, cuda_device: int = -1) -> Any:
        from allennlp.common.checks import ConfigurationError

        try:
            return original(config, weights_path, serialization_dir, cuda_device)
        except pickle.UnpicklingError as error:
            if isinstance(error, PickledCodeRefused):
                raise
            if "Unsupported global" not in str(error):  # not an object asked for: bytes that are no pickle
                raise damaged(_source_of(weights_path, serialization_dir), serialization_dir, error) from None
            raise refusal(_source_of(weights_path, serialization_dir), error) from None
        except ConfigurationError:
            raise
        except (OSError, RuntimeError, KeyError, EOFError, ValueError) as error:
            if archive_of(serialization_dir) is None:  # a training run's own folder: its error as it is
                raise
            raise damaged(_source_of(weights_path, serialization_dir), serialization_dir, error) from None

    load_model._green_nlp_patched = True  # type: ignore[attr-defined]
    return load_model


def _named_load_checkpoint(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def load_checkpoint(self: Any) -> Optional[Any]:
        try:
            return original(self)
        except pickle.UnpicklingError as error:
            if isinstance(error, PickledCodeRefused):
                raise
            raise refusal(f"checkpoint in {self._serialization_dir}", error) from None

    load_checkpoint._green_nlp_patched = True  # type: ignore[attr-defined]
    return load_checkpoint


def apply() -> bool:
    """Name the archive in pickle refusals (True if this call patched), and warn when `weights_only`
    loading is switched off."""
    from allennlp.models import archival
    from allennlp.training.checkpointer import Checkpointer

    if weights_only_disabled():
        logger.warning(
            "%s is set: allennlp's torch.load calls will unpickle arbitrary objects from archives "
            "and checkpoints. Unset it unless every archive you load is your own.",
            _UNSAFE_ENV,
        )
    if getattr(archival._load_model, "_green_nlp_patched", False):
        return False
    archival._load_model = _named_load_model(archival._load_model)
    Checkpointer.load_checkpoint = _named_load_checkpoint(Checkpointer.load_checkpoint)  # type: ignore[method-assign]
    return True
