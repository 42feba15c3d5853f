"""The shell commands in README.md and docs/ work for a user who has not set anything up: a data
path falls back to the documented default, and an archive a command reads was trained before it."""

import re
from pathlib import Path

from tests.conftest import REPO_ROOT

BASH_BLOCK = re.compile(r"```bash\n(.*?)```", re.DOTALL)
UNSET_DATA_VARIABLE = re.compile(r"\$GREEN_NLP_DATA\b|\$\{GREEN_NLP_DATA\}")


def _bash_blocks() -> list[tuple[Path, str]]:
    pages = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
    return [(page, block) for page in pages for block in BASH_BLOCK.findall(page.read_text(encoding="utf-8"))]


def test_data_paths_fall_back_to_the_default_when_green_nlp_data_is_unset():
    # the configs default GREEN_NLP_DATA themselves; a shell command does not, and with the variable
    # unset "$GREEN_NLP_DATA/ud/..." becomes "/ud/...", a file-not-found at the filesystem root
    offenders = [
        f"{page.relative_to(REPO_ROOT)}: {line.strip()}"
        for page, block in _bash_blocks()
        for line in block.splitlines()
        if UNSET_DATA_VARIABLE.search(line.split("#", 1)[0])
    ]
    assert not offenders, "use ${GREEN_NLP_DATA:-../shared/data}:\n" + "\n".join(offenders)


def test_the_readme_trains_every_run_folder_its_commands_read():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = next(block for block in BASH_BLOCK.findall(readme) if "allennlp train" in block)
    trained, missing = set(), []
    for line in block.splitlines():
        command = line.split("#", 1)[0]
        trained.update(re.findall(r"-s (runs/[\w./-]+)", command))
        for folder in re.findall(r"(runs/[\w-]+)/model\.tar\.gz", command):
            if folder not in trained:
                missing.append(f"{folder}: {command.strip()}")
    assert not missing, "archives read before any command trains them:\n" + "\n".join(missing)
