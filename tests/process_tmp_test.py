"""The shared training runs' folders go when the test process ends."""

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT


def test_a_process_folder_is_removed_when_its_process_exits():
    code = (
        "from tests.process_tmp import process_tmp_dir\np = process_tmp_dir('x_')\n(p / 'f').write_text('1')\nprint(p)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True, capture_output=True, text=True)
    folder = Path(out.stdout.strip())
    assert folder.name.startswith("x_")
    assert not folder.exists()
