"""Which allennlp a patch was written for, and what happens when another one is installed.

Every patch replaces a piece of allennlp 2.10.1's own code (a method body, a module attribute) with a
copy that differs in one narrow way. On another allennlp release that copy could silently undo a fix
upstream made, or break in a place far from the cause, so each patch names the release it was read
against and `check` compares it with the installed one before anything is replaced.
"""

import logging
from importlib import metadata
from typing import NamedTuple, Optional

logger = logging.getLogger(__name__)

# allennlp's last release (2022): every patch here was written against its source.
ALLENNLP_VERSION = "2.10.1"


class PatchVersionError(RuntimeError):
    """A patch that must not be skipped met a package version it was not written for."""


class WrittenFor(NamedTuple):
    """The package release a patch was read against, and whether a mismatch skips it or is an error."""

    package: str
    version: str
    required: bool = False  # True: refuse to run without it (a safety fix); False: skip with a warning


def installed_version(package: str) -> Optional[str]:
    """The installed distribution's version, or None when it is not installed."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def check(patch: str, written_for: WrittenFor) -> bool:
    """True when `patch` may be applied; False (with a warning) when it is skipped.

    Raises `PatchVersionError` for a required patch on another version.
    """
    found = installed_version(written_for.package)
    if found == written_for.version:
        return True
    message = (
        f"green_nlp patch {patch!r} was written for {written_for.package} {written_for.version}, "
        f"but {written_for.package} {found or '(not installed)'} is installed"
    )
    if written_for.required:
        raise PatchVersionError(
            f"{message}; it cannot be skipped. Check green_nlp/patches/{patch}.py against "
            f"this release and update its WRITTEN_FOR."
        )
    logger.warning("%s: skipped, so allennlp's own behaviour stays (see green_nlp/patches/%s.py).", message, patch)
    return False
