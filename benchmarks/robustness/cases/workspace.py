"""The run's temporary folder, made once and removed at exit."""

import atexit
import functools
import shutil
import tempfile
from pathlib import Path


@functools.cache
def work_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="robustness_"))
    atexit.register(shutil.rmtree, folder, True)
    return folder
