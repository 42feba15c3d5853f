"""Folders that live as long as the test process: the runs trained once and shared by many tests."""

import atexit
import shutil
import tempfile
from pathlib import Path


def process_tmp_dir(prefix: str) -> Path:
    """A new temporary folder, removed when the process exits: without this each test run left its
    shared training runs behind (a few hundred MB a run for the MiniLM teachers)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, True)
    return path
