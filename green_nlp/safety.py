"""Loading archives without trusting them.

Weights: every `torch.load` in allennlp 2.10.1 leaves `weights_only` unset, which on torch >= 2.6
means `weights_only=True`: a `weights.th` / `best.th` / training state holding anything but
tensors and allow-listed types is refused before any of its code runs. green_nlp itself unpickles
nothing (tests/safety_test.py checks that any `torch.load` in it passes `weights_only=True`). The one way to lose that is the environment variable
`TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`, which flips every unset call back to full unpickling;
`warn_if_weights_only_disabled` says so loudly at import.

Archive files: allennlp extracts `model.tar.gz` with a bare `tarfile.extractall`, which on
Python 3.11 writes members named `../x` or absolute paths outside the temporary folder and follows
links out of it. `patch_archive_extraction` replaces allennlp's `extracted_archive` with one that
uses tarfile's `data` filter (refusing such members) and turns a truncated or corrupt archive into
a `ConfigurationError` naming the file, instead of a gzip/tarfile traceback, and removes the
half-extracted temporary folder of such an archive.
"""
import logging
import os
import shutil
import tarfile
import tempfile
import zlib
from contextlib import contextmanager
from typing import Iterator

from allennlp.common.checks import ConfigurationError

logger = logging.getLogger(__name__)

_UNSAFE_ENV = "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"


def weights_only_disabled() -> bool:
    """True when the environment makes torch unpickle arbitrary objects in unset `torch.load` calls."""
    return os.environ.get(_UNSAFE_ENV, "0").lower() in ("1", "y", "yes", "true")


def warn_if_weights_only_disabled() -> bool:
    if weights_only_disabled():
        logger.warning("%s is set: allennlp's torch.load calls will unpickle arbitrary objects from archives "
                       "and checkpoints. Unset it unless every archive you load is your own.", _UNSAFE_ENV)
        return True
    return False


@contextmanager
def safe_extracted_archive(resolved_archive_file: str, cleanup: bool = True) -> Iterator[str]:
    """Drop-in for `allennlp.models.archival.extracted_archive` (same arguments, same cleanup).

    An archive that is refused or fails to extract leaves no folder behind, whatever `cleanup`
    says: allennlp's `load_archive` asks for `cleanup=False` and removes the folder itself, but only
    once the extraction has returned it, so a half-extracted folder used to stay in the temp dir.
    """
    tempdir = tempfile.mkdtemp()
    try:
        _extract(resolved_archive_file, tempdir)
        if not os.path.isfile(os.path.join(tempdir, "config.json")):
            raise ConfigurationError(f"archive {resolved_archive_file} holds no config.json: it is not a model "
                                     "archive written by allennlp train (or archive_model)")
    except BaseException:
        shutil.rmtree(tempdir, ignore_errors=True)
        raise
    try:
        yield tempdir
    finally:
        if cleanup:
            shutil.rmtree(tempdir, ignore_errors=True)


def _extract(resolved_archive_file: str, tempdir: str) -> None:
    try:
        with tarfile.open(resolved_archive_file, "r:gz") as archive:
            archive.extractall(tempdir, filter="data")
    except tarfile.FilterError as error:
        raise ConfigurationError(f"archive {resolved_archive_file} was refused: member {error.tarinfo.name!r} "
                                 f"would be written outside the extraction folder or is not a plain file "
                                 f"({type(error).__name__}). Do not load archives from untrusted sources."
                                 ) from None
    except (tarfile.ReadError, EOFError, zlib.error, OSError) as error:
        raise ConfigurationError(f"archive {resolved_archive_file} is not a readable model.tar.gz (truncated "
                                 f"or corrupt?): {error}. Re-create it, e.g. with allennlp's archive_model "
                                 "from the run's serialization folder.") from None


def patch_archive_extraction() -> bool:
    """Make allennlp's `load_archive` (and the pretrained-model initializer) extract safely."""
    from allennlp.models import archival

    if archival.extracted_archive is safe_extracted_archive:
        return False
    archival.extracted_archive = safe_extracted_archive
    return True


patch_archive_extraction()
warn_if_weights_only_disabled()
