"""Every LD-Net config builds on the fixtures, the headline command trains from a fresh clone's
state, and the data/LM switch picks real data and trained LMs only when they exist."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from allennlp.commands.train import TrainModel
from allennlp.common import Params

from green_nlp.models import ldnet_env
from tests.conftest import REPO_ROOT, require_data

CONFIGS = sorted((REPO_ROOT / "training_configs").glob("ldnet*.jsonnet")) + sorted(
    (REPO_ROOT / "training_configs" / "ldnet").glob("*.jsonnet"))


@pytest.fixture
def on_fixtures(monkeypatch):
    monkeypatch.setenv("LDNET_DATA", "fixtures/ldnet/data")
    monkeypatch.setenv("LDNET_LM_PRESET", "tiny")
    monkeypatch.chdir(REPO_ROOT)


def test_there_are_configs_for_every_task_and_stage():
    names = {p.name for p in CONFIGS}
    assert {"ldnet_ner.jsonnet", "ldnet_ner_nolm.jsonnet", "ldnet_ner_prune.jsonnet", "ldnet_wnut17.jsonnet",
            "ldnet_wnut17_nolm.jsonnet", "ldnet_chunking.jsonnet", "ldnet_chunking_nolm.jsonnet",
            "lm_forward.jsonnet", "lm_backward.jsonnet"} <= names


@pytest.mark.parametrize("config_path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_config_builds(config_path: Path, tmp_path, on_fixtures):
    params = Params.from_file(str(config_path), json.dumps({"trainer.num_epochs": 1}))
    train_loop = TrainModel.from_params(params=params, serialization_dir=str(tmp_path), local_rank=0)
    assert train_loop.model is not None and train_loop.trainer is not None


def test_headline_command_trains_on_fixtures_without_shared_data(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LDNET_")}
    env["GREEN_NLP_DATA"] = str(tmp_path / "no-data-here")  # as in a fresh clone with no shared data
    serialization = tmp_path / "run"
    result = subprocess.run([sys.executable, "-m", "allennlp", "train", "training_configs/ldnet_ner.jsonnet",
                             "--include-package", "green_nlp", "-s", str(serialization)],
                            cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    config = json.loads((serialization / "config.json").read_text())
    assert "fixtures/ldnet/data" in config["train_data_path"]
    # a fresh clone has no trained LMs under runs/ and uses the committed tiny ones
    trained = all((REPO_ROOT / path).exists() for path in ldnet_env.TRAINED_LMS)
    expected = str(ldnet_env.TRAINED_LMS[0]) if trained else "fixtures/ldnet/archives/lm_forward.tar.gz"
    assert config["model"]["language_models"][0]["pretrained_file"] == expected
    metrics = json.loads((serialization / "metrics.json").read_text())
    assert "test_f1-measure-overall" in metrics and (serialization / "model.tar.gz").exists()


def test_defaults_pick_real_data_and_trained_lms_only_when_present(tmp_path, monkeypatch):
    for name in ("LDNET_DATA", "LDNET_LM_PRESET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GREEN_NLP_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    ldnet_env.export_defaults()
    assert os.environ["LDNET_DATA"] == str(ldnet_env.FIXTURE_DATA) and os.environ["LDNET_LM_PRESET"] == "tiny"
    (tmp_path / "data" / "ner" / "conll2003").mkdir(parents=True)
    (tmp_path / "data" / "ner" / "conll2003" / "eng.train").write_text("EU NNP I-NP I-ORG\n")
    for path in ldnet_env.TRAINED_LMS:
        (tmp_path / path).parent.mkdir(parents=True)
        (tmp_path / path).write_bytes(b"")
    for name in ("LDNET_DATA", "LDNET_LM_PRESET"):
        monkeypatch.delenv(name)
    ldnet_env.export_defaults()
    assert os.environ["LDNET_DATA"] == str(tmp_path / "data") and os.environ["LDNET_LM_PRESET"] == "cpu"
    monkeypatch.setenv("LDNET_LM_PRESET", "tiny")  # an explicit choice wins
    ldnet_env.export_defaults()
    assert os.environ["LDNET_LM_PRESET"] == "tiny"


def test_real_data_config_points_at_the_shared_files(monkeypatch):
    data = require_data("ner", "conll2003", "eng.train").parents[2]
    monkeypatch.setenv("LDNET_DATA", str(data))
    monkeypatch.setenv("LDNET_LM_PRESET", "cpu")
    monkeypatch.chdir(REPO_ROOT)
    config = Params.from_file("training_configs/ldnet_ner.jsonnet").as_dict()
    for key in ("train_data_path", "validation_data_path", "test_data_path"):
        assert Path(config[key]).exists()
    assert config["model"]["language_models"][1]["pretrained_file"] == "runs/ldnet/lm_backward/model.tar.gz"
    assert config["model"]["language_models"][1]["num_layers"] == 10
    chunking = Params.from_file("training_configs/ldnet_chunking.jsonnet").as_dict()
    assert chunking["dataset_reader"]["split"] == "train" and chunking["validation_dataset_reader"]["dev_size"] == 1000
