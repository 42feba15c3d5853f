"""The design card's uses, typed as a user types them, from a folder outside the clone.

- `allennlp train training_configs/ldnet_ner.jsonnet -s DIR --include-package green_nlp`, in a project
  folder holding a copy of the installed `training_configs/` (docs/configs.md: the configs import their
  builders by relative path, so a user copies the folder), on the fixtures with a one-epoch override;
- `allennlp predict ARCHIVE raw.txt` on a raw text file, for each family (parser, LD-Net tagger, DAN);
- a green component reused from another AllenNLP project's own config.

Each is one real `allennlp` process (they are slow to start), so the cases are few and broad.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from tests.conftest import FIXTURES, REPO_ROOT
from tests.dan_helpers import tiny_dan_run

ALLENNLP = str(Path(sys.executable).parent / "allennlp")
LDNET_FIXTURES = FIXTURES / "ldnet"
RAW_TEXT_LINES = [
    "the small cat sees a green dog .",
    "The old parser finds a quick tree near the river.",
    "every teacher trains the model in the city",
]


def _allennlp(args: list[str], cwd: Path, env: Optional[dict[str, str]] = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("LDNET_")}
    environment.update(env or {})
    return subprocess.run([ALLENNLP, *args], capture_output=True, text=True, cwd=cwd, env=environment, timeout=900)


def _project_folder(tmp_path: Path) -> Path:
    """A user's own project folder, outside the clone, with no `.allennlp_plugins` file."""
    project = tmp_path / "my_project"
    project.mkdir()
    assert REPO_ROOT not in project.resolve().parents
    return project


def test_the_design_card_command_is_where_users_type_it():
    config = REPO_ROOT / "training_configs" / "ldnet_ner.jsonnet"
    assert config.exists(), "training_configs/ldnet_ner.jsonnet is the design card's path: it must not move"


def test_the_design_card_train_command_runs_from_a_project_folder(tmp_path: Path):
    from green_nlp.cli import configs_folder

    project = _project_folder(tmp_path)
    shutil.copytree(configs_folder(), project / "training_configs")
    result = _allennlp(
        [
            "train",
            "training_configs/ldnet_ner.jsonnet",
            "-s",
            "runs/ldnet_ner",
            "--include-package",
            "green_nlp",
            "-o",
            json.dumps({"trainer.num_epochs": 1}),
        ],
        cwd=project,
        # the tiny override: the committed fixture data and toy LMs, whatever the shared data holds
        env={"LDNET_DATA": str(LDNET_FIXTURES / "data"), "LDNET_LM_PRESET": "tiny"},
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert "training the tagger on the tiny made-up fixture files" in result.stderr  # the loud fallback
    run = project / "runs" / "ldnet_ner"
    assert (run / "model.tar.gz").exists()
    config = json.loads((run / "config.json").read_text())
    assert config["model"]["type"] == "green_ldnet_tagger"
    assert len(config["model"]["language_models"]) == 2  # the `origin` stage: forward and backward LMs
    assert config["dataset_reader"]["encoding"] == "IOB1"  # CoNLL-03's files
    assert "best_validation_f1-measure-overall" in json.loads((run / "metrics.json").read_text())


def _predict(archive: Path, project: Path, lines: list[str], extra: Optional[list[str]] = None) -> list[str]:
    raw = project / "raw.txt"
    raw.write_text("\n".join(lines) + "\n")
    output = project / "out.txt"
    result = _allennlp(
        ["predict", str(archive), "raw.txt", "--output-file", "out.txt", "--silent", "--include-package", "green_nlp"]
        + (extra or []),
        cwd=project,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return output.read_text().splitlines()


def test_predict_raw_text_with_a_parser(tmp_path: Path, quickstart_archive: Path):
    project = _project_folder(tmp_path)
    out = _predict(quickstart_archive, project, RAW_TEXT_LINES)
    blocks = "\n".join(out).strip().split("\n\n")
    assert len(blocks) == len(RAW_TEXT_LINES)  # one CoNLL-U block per line
    first_rows = [row.split("\t") for row in blocks[0].splitlines() if row and not row.startswith("#")]
    assert [row[1] for row in first_rows] == RAW_TEXT_LINES[0].split()  # spaCy tokens
    assert all(row[6].isdigit() for row in first_rows)  # a head for every word


def test_predict_raw_text_with_an_ldnet_tagger(tmp_path: Path):
    project = _project_folder(tmp_path)
    out = _predict(LDNET_FIXTURES / "archives" / "tagger_origin.tar.gz", project, RAW_TEXT_LINES)
    records = [json.loads(line) for line in out if line.strip()]
    assert len(records) == len(RAW_TEXT_LINES)
    for record, line in zip(records, RAW_TEXT_LINES):
        assert len(record["tags"]) == len(record["words"]) > 0
        assert "".join(record["words"]) == line.replace(" ", "")


def test_predict_raw_text_with_a_dan(tmp_path: Path):
    project = _project_folder(tmp_path)
    out = _predict(tiny_dan_run() / "model.tar.gz", project, RAW_TEXT_LINES)
    records = [json.loads(line) for line in out if line.strip()]
    assert len(records) == len(RAW_TEXT_LINES)
    assert all("label" in record and "probs" in record for record in records), records[0]


def test_a_green_component_in_another_projects_config(tmp_path: Path):
    """A user's own config: allennlp-models' `crf_tagger` fed by green_nlp's CoNLL reader (BIOUL)."""
    project = _project_folder(tmp_path)
    data = LDNET_FIXTURES / "data"
    config = {
        "dataset_reader": {"type": "green_conll_tagging", "encoding": "IOB1", "label_encoding": "BIOUL"},
        "train_data_path": str(data / "ner_conll2003_train.txt"),
        "validation_data_path": str(data / "ner_conll2003_dev.txt"),
        "model": {
            "type": "crf_tagger",
            "label_encoding": "BIOUL",
            "calculate_span_f1": True,
            "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 6}}},
            "encoder": {"type": "lstm", "input_size": 6, "hidden_size": 4, "bidirectional": True},
        },
        "data_loader": {"batch_size": 8},
        "trainer": {"optimizer": {"type": "adam", "lr": 0.01}, "num_epochs": 1, "cuda_device": -1},
    }
    (project / "my_tagger.jsonnet").write_text(json.dumps(config, indent=2))
    result = _allennlp(
        ["train", "my_tagger.jsonnet", "-s", "runs/my_tagger", "--include-package", "green_nlp"], cwd=project
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert "best_validation_f1-measure-overall" in json.loads((project / "runs/my_tagger/metrics.json").read_text())
    without_plugin = _allennlp(["train", "my_tagger.jsonnet", "-s", "runs/again"], cwd=project)
    assert without_plugin.returncode != 0 and "green_conll_tagging" in without_plugin.stderr


@pytest.mark.parametrize("name", ["ldnet_ner.jsonnet"])
def test_the_design_card_config_is_shipped_with_the_package(name: str):
    from green_nlp.cli import configs_folder

    assert (configs_folder() / name).exists()
