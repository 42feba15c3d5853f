"""`python -m green_nlp` is the `green-nlp` command."""

import subprocess
import sys

from tests.conftest import REPO_ROOT


def test_python_dash_m_runs_the_command_line():
    # run from the checkout: its green_nlp, whichever clone a shared venv's editable install names
    result = subprocess.run(
        [sys.executable, "-m", "green_nlp", "models"], cwd=REPO_ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("en-ewt-parser\tok\tparser: ")
