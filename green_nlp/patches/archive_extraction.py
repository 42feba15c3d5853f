"""Extract `model.tar.gz` archives safely (a required patch: never skipped).

allennlp extracts an archive with a bare `tarfile.extractall`, which on Python 3.11 writes members
named `../x` or absolute paths outside the temporary folder and follows links out of it. `apply`
replaces allennlp's `extracted_archive` with one that uses tarfile's `data` filter (refusing such
members), turns a truncated or corrupt archive into a `ConfigurationError` naming the file instead of
a gzip/tarfile traceback, and removes the half-extracted temporary folder of such an archive.
Weights are the other half of loading untrusted archives: see `weights_only_check`.
"""

import os
import shutil
import tarfile
import tempfile
import zlib
from contextlib import contextmanager
from typing import Iterator

from allennlp.common.checks import ConfigurationError

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

# Required: on another allennlp an unpatched load would extract archives unsafely, silently.
WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION, required=True)


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
            raise ConfigurationError(
                f"archive {resolved_archive_file} holds no config.json: it is not a model "
                "archive written by allennlp train (or archive_model)"
            )
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
        raise ConfigurationError(
            f"archive {resolved_archive_file} was refused: member {error.tarinfo.name!r} "
            f"would be written outside the extraction folder or is not a plain file "
            f"({type(error).__name__}). Do not load archives from untrusted sources."
        ) from None
    except (tarfile.ReadError, EOFError, zlib.error, OSError) as error:
        raise ConfigurationError(
            f"archive {resolved_archive_file} is not a readable model.tar.gz (truncated "
            f"or corrupt?): {error}. Re-create it, e.g. with allennlp's archive_model "
            "from the run's serialization folder."
        ) from None


def apply() -> bool:
    """Make allennlp's `load_archive` (and the pretrained-model initializer) extract safely; True if this call did."""
    from allennlp.models import archival

    if archival.extracted_archive is safe_extracted_archive:
        return False
    archival.extracted_archive = safe_extracted_archive
    return True
