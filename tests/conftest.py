"""Shared test helpers: paths to fixtures and to the real data (tests skip when it is absent)."""

import os
from pathlib import Path

import pytest

import green_nlp
from green_nlp.settings import DATA_ENV_VAR, data_dir

green_nlp.register()  # compat patches and every AllenNLP component, as `--include-package green_nlp` does

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES = REPO_ROOT / "fixtures"
BAD_INPUTS = Path(__file__).resolve().parent / "bad_inputs"


def require_data(*parts: str) -> Path:
    """Path under the real data root, or skip the test saying how to provide it."""
    path = data_dir().joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not found at {path}; set {DATA_ENV_VAR} to the shared data folder")
    return path


def ewt_texts(split: str) -> list[str]:
    """The `# text =` of each UD English-EWT sentence of `split` (train, dev, test), or skip."""
    path = require_data("ud", "UD_English-EWT", f"en_ewt-ud-{split}.conllu")
    prefix = "# text = "
    return [line[len(prefix) :] for line in path.read_text("utf-8").splitlines() if line.startswith(prefix)]


# Test folders whose tests must not run beside each other on two xdist workers: Ray tests start or join
# the machine's default local cluster (`--ray auto` would join the other worker's), DDP tests bind torch's
# default master port. `--dist loadgroup` (scripts/test.sh) keeps each group on one worker.
SERIAL_GROUPS = {"distributed_ray": "ray", "distributed": "ddp"}


def pytest_collection_modifyitems(items: list) -> None:
    for item in items:
        parts = Path(str(item.fspath)).relative_to(Path(__file__).parent).parts
        if parts and parts[0] in SERIAL_GROUPS:
            item.add_marker(pytest.mark.xdist_group(SERIAL_GROUPS[parts[0]]))


@pytest.fixture(autouse=True)
def _cheap_threads():
    """Keep tests from fighting over the CI machine's two cores."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(scope="session")
def quickstart_archive(tmp_path_factory) -> Path:
    """Train the quickstart parser once per test session (about 15 s) and return its archive."""
    from allennlp.commands.train import train_model_from_file

    serialization_dir = tmp_path_factory.mktemp("quickstart")
    cwd = os.getcwd()
    os.chdir(REPO_ROOT)  # the config names fixture paths relative to the repo root
    try:
        train_model_from_file(
            str(REPO_ROOT / "training_configs" / "parser" / "quickstart.jsonnet"), str(serialization_dir), force=True
        )
    finally:
        os.chdir(cwd)
    return serialization_dir / "model.tar.gz"


@pytest.fixture(scope="session")
def fold_teacher_archives(tmp_path_factory) -> list:
    """Two cross-fitting fixture teachers, trained once per test session by `allennlp train`: teacher
    i on fixtures/ud/synthetic-train.conllu without fold i of 2, with the fixture teacher's
    vocabulary (so the fixture student can distil from them)."""
    import json
    import subprocess
    import sys

    archives = []
    for fold in (0, 1):
        run = tmp_path_factory.mktemp(f"fold{fold}") / "run"
        overrides = {
            "dataset_reader.cross_fit_folds": 2,
            "dataset_reader.leave_out_fold": fold,
            "vocabulary": {
                "type": "from_files",
                "directory": str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"),
            },
            "trainer.num_epochs": 2,
        }
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "allennlp",
                "train",
                str(FIXTURES / "parser" / "teacher_experiment.jsonnet"),
                "-s",
                str(run),
                "-o",
                json.dumps(overrides),
                "--include-package",
                "green_nlp",
            ],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        archives.append(run / "model.tar.gz")
    return archives


# --------------------------------------------- exported runtime folders (tests/export, tests/runtime)
class _Lazy(dict):
    """name -> value, made on first access, so a test only pays for the models it uses."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, name):
        self[name] = value = self._make(name)
        return value


@pytest.fixture(scope="session")
def export_base(tmp_path_factory):
    return tmp_path_factory.mktemp("exported")


@pytest.fixture(scope="session")
def parser_archives(export_base, request):
    """name -> archive: "teacher" (gold UPOS), "quickstart" (raw text: characters, UPOS head),
    "all_features" (characters, UPOS in and out, 2 layers) and "words_only" (neither), both
    barely trained."""
    from tests.export.exported_models import archive_of

    def make(name):
        quickstart = request.getfixturevalue("quickstart_archive") if name == "quickstart" else None
        return archive_of(name, export_base, quickstart)

    return _Lazy(make)


@pytest.fixture(scope="session")
def parser_folders(export_base, parser_archives):
    """name -> exported runtime folder of `parser_archives[name]`."""
    from tests.export.exported_models import RAW_TEXT_CARD, exported

    return _Lazy(
        lambda name: exported(name, parser_archives[name], export_base, RAW_TEXT_CARD if name == "quickstart" else None)
    )
