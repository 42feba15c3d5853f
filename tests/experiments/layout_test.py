"""experiments/: each study is one self-contained folder (its scripts beside its results), and the
lab's README links only to files that exist."""

import re

import pytest

from tests.conftest import REPO_ROOT

LAB = REPO_ROOT / "experiments"
STUDIES = sorted(folder for folder in LAB.iterdir() if (folder / "__init__.py").exists())
MARKDOWN_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_lab_has_its_studies():
    assert {folder.name for folder in STUDIES} >= {
        "parser",
        "dan_trec_seeds",
        "dan_imdb_seeds",
        "dan_word_vectors",
        "dan_teacher_long_inputs",
    }


@pytest.mark.parametrize("study", STUDIES, ids=lambda folder: folder.name)
def test_each_study_keeps_its_results_beside_its_scripts(study):
    results = sorted((study / "results").glob("*.json"))
    assert results, f"{study.name} has no results/*.json"
    assert [path.name for path in results if not path.with_suffix(".md").exists()] == []
    assert list(study.glob("*.py")), f"{study.name} has no scoring script"


def test_every_link_of_the_lab_readme_resolves():
    readme = LAB / "README.md"
    targets = MARKDOWN_LINK.findall(readme.read_text(encoding="utf-8"))
    assert targets
    assert [target for target in targets if not target.startswith("http") and not (LAB / target).exists()] == []
