"""Extract `model.tar.gz` archives safely (a required patch: never skipped).

allennlp extracts an archive with a bare `tarfile.extractall`, which on Python 3.11 writes members
named `../x` or absolute paths outside the temporary folder and follows links out of it. `apply`
replaces allennlp's `extracted_archive` with one that refuses every member whose name is absolute
or holds a `..` part (tarfile's `data` filter would quietly strip a leading `/` and extract it), then
applies the `data` filter (no links out, no special files), turns a truncated or corrupt archive into
a `ConfigurationError` naming the file instead of a gzip/tarfile traceback, and removes the
half-extracted temporary folder of such an archive. Weights are the other half of loading untrusted
archives: see `weights_only_check`, which names the archive a refused weights file came from.
"""

import os
import re
import shutil
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional

from allennlp.common.checks import ConfigurationError

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

# Required: on another allennlp an unpatched load would extract archives unsafely, silently.
WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION, required=True)

# extraction folder -> the archive extracted into it, so that a refusal while loading the folder's
# weights can name the archive the user gave (allennlp passes on only the temporary folder)
_SOURCES: dict[str, str] = {}
_MAX_SOURCES = 64


def archive_of(folder: str) -> Optional[str]:
    """The archive extracted into `folder` by this process, if any."""
    return _SOURCES.get(os.path.normpath(folder))


class MemberPathError(tarfile.FilterError):
    """A member named by an absolute path or with a `..` part: refused, never rewritten."""

    def __init__(self, tarinfo: tarfile.TarInfo) -> None:
        self.tarinfo = tarinfo
        super().__init__(f"member {tarinfo.name!r} has an absolute path or a '..' part")


def _refuse_escaping_names(member: tarfile.TarInfo, destination: str) -> Optional[tarfile.TarInfo]:
    """tarfile's `data` filter, after refusing the names it would rewrite instead of refuse."""
    name = member.name.replace("\\", "/")
    if name.startswith("/") or re.match(r"[A-Za-z]:", name) or ".." in name.split("/"):
        raise MemberPathError(member)
    return tarfile.data_filter(member, destination)


@contextmanager
def safe_extracted_archive(resolved_archive_file: str, cleanup: bool = True) -> Iterator[str]:
    """Drop-in for `allennlp.models.archival.extracted_archive` (same arguments, same cleanup).

    An archive that is refused or fails to extract leaves no folder behind, whatever `cleanup`
    says: allennlp's `load_archive` asks for `cleanup=False` and removes the folder itself, but only
    once the extraction has returned it, so a half-extracted folder used to stay in the temp dir.
    """
    tempdir = tempfile.mkdtemp()
    if len(_SOURCES) >= _MAX_SOURCES:  # allennlp removes the folders itself; keep the map small
        _SOURCES.clear()
    _SOURCES[os.path.normpath(tempdir)] = resolved_archive_file
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
            archive.extractall(tempdir, filter=_refuse_escaping_names)
    except tarfile.FilterError as error:
        raise ConfigurationError(
            f"archive {resolved_archive_file} was refused: {error} (green_nlp extracts only plain files "
            "and folders that stay inside the archive, nothing is written outside it). "
            "Do not load archives from untrusted sources."
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
