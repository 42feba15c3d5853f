"""Shared test helpers: paths to fixtures and to the real data (tests skip when it is absent)."""
import os
from pathlib import Path

import pytest

import green_nlp  # noqa: F401  (applies compat patches, registers components)
from green_nlp.data_paths import DATA_ENV_VAR, data_dir

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES = REPO_ROOT / "fixtures"
BAD_INPUTS = Path(__file__).resolve().parent / "bad_inputs"


def require_data(*parts: str) -> Path:
    """Path under the real data root, or skip the test saying how to provide it."""
    path = data_dir().joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not found at {path}; set {DATA_ENV_VAR} to the shared data folder")
    return path


@pytest.fixture(autouse=True)
def _cheap_threads():
    """Keep tests from fighting over the CI machine's two cores."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)
