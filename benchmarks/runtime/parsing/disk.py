"""Sizes on disk: the archive, the graphs, the exported folder and the two venvs."""

import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

from benchmarks.runtime.parsing.settings import REPO_ROOT


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in Path(path).rglob("*") if p.is_file())


def du_bytes(path: Path) -> Optional[int]:
    """Disk usage of a folder (`du -s`, links not followed), None if du fails."""
    try:
        result = subprocess.run(
            ["du", "-s", "--block-size=1", str(path)], capture_output=True, text=True, timeout=600, check=True
        )
        return int(result.stdout.split()[0])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def training_venv() -> Optional[Path]:
    """The venv this benchmark runs in (it imports torch and allennlp, so it is the training venv),
    wherever it lives; else the clone's `.venv` when there is one; else None."""
    if sys.prefix != sys.base_prefix:
        return Path(sys.prefix)
    venv = REPO_ROOT / ".venv"
    return venv if venv.exists() else None


def disk_sizes(
    archive: Path, folder: Path, runtime_venv: Optional[Path], training: Optional[Path] = None
) -> dict[str, Any]:
    """Sizes in MB (files) and GB (venvs, `du`, links resolved); a venv that was not found or could not
    be measured is None, so the report's keys do not depend on where the venvs live. `training`
    defaults to `training_venv()`."""
    from green_nlp.runtime.model_folder import FP32_FILE, INT8_FILE, META_FILE

    mb = 1e6
    sizes: dict[str, Any] = {
        "archive_mb": archive.stat().st_size / mb,
        "onnx_fp32_mb": (folder / FP32_FILE).stat().st_size / mb,
        "onnx_int8_mb": (folder / INT8_FILE).stat().st_size / mb,
        "metadata_json_mb": (folder / META_FILE).stat().st_size / mb,
        "exported_folder_mb": tree_bytes(folder) / mb,
        "shipped_folder_int8_only_mb": ((folder / INT8_FILE).stat().st_size + (folder / META_FILE).stat().st_size) / mb,
    }
    for key, venv in (("training_venv_gb", training or training_venv()), ("runtime_venv_gb", runtime_venv)):
        found = du_bytes(venv.resolve()) if venv is not None else None
        if venv is not None or key == "training_venv_gb":
            sizes[key] = found / 1e9 if found is not None else None
    return sizes
