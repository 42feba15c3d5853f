"""The README's "Use a ready model" examples run as written (the `pip install .` line is CI's
`scripts/check_runtime_install.sh`, which installs into a fresh venv instead)."""

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES, REPO_ROOT

MARKED_BLOCK = re.compile(r"<!-- readme-test: (shell|python) -->\n```\w*\n(.*?)```", re.DOTALL)


def marked_blocks() -> list[tuple[str, str]]:
    return MARKED_BLOCK.findall((REPO_ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_marks_its_ready_model_examples():
    assert [kind for kind, _ in marked_blocks()] == ["shell", "python"]


def test_shell_examples_run_as_written(tmp_path: Path):
    (tmp_path / "fixtures").symlink_to(FIXTURES)
    bin_dir = Path(sys.executable).parent
    for kind, block in marked_blocks():
        if kind != "shell":
            continue
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if not command or command.startswith("pip install"):
                continue
            result = subprocess.run(
                command,
                shell=True,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=300,
                env={"PATH": f"{bin_dir}:/usr/bin:/bin"},
            )
            assert result.returncode == 0, f"{command}\n{result.stderr[-2000:]}"
    parsed = (tmp_path / "parsed.conllu").read_text(encoding="utf-8")
    assert parsed.count("# text = ") >= 3 and "\troot\t" in parsed


def test_python_examples_run_as_written(tmp_path: Path):
    for kind, block in marked_blocks():
        if kind != "python":
            continue
        result = subprocess.run(
            [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr[-2000:]
        rows = [line.split("\t") for line in result.stdout.splitlines() if line and not line.startswith("#")]
        assert [row[1] for row in rows] == ["The", "cat", "sat", "on", "the", "mat", "."]
        assert sum(row[6] == "0" for row in rows) == 1
