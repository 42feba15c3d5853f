"""Every sparse-distillation config builds (reader, vocabulary, model, optimizer, trainer) with its
real-data paths pointed at the fixtures, as tests/training_config_test.py does for the others."""
import json
from pathlib import Path

import pytest
from allennlp.commands.train import TrainModel
from allennlp.common import Params

from tests.conftest import REPO_ROOT
from tests.dan_helpers import DAN_FIXTURES, TEACHER_CACHE, tiny_dan_run, tiny_named_dan_run

CONFIGS = sorted((REPO_ROOT / "training_configs" / "dan").glob("*.jsonnet"))
FIXTURE_FOR = {"sst2": ("sst2_train.tsv", "sst2_dev.tsv"), "trec": ("trec_tiny.txt", "trec_tiny.txt"),
               "imdb": ("imdb_tiny.jsonl.gz", "imdb_tiny.jsonl.gz")}


def _fixture_overrides(config: dict, name: str) -> dict:
    vocabulary = config.get("vocabulary", {})
    # the fixture teacher cache and the tiny DAN that DAN(KD+FT) starts from have SST-2's labels
    from_fixture_teacher = "teacher" in config["train_data_path"] or vocabulary.get("type") == "from_files"
    dataset = "sst2" if from_fixture_teacher else next(d for d in FIXTURE_FOR if d in name)
    train, dev = (str(DAN_FIXTURES / f) for f in FIXTURE_FOR[dataset])
    overrides = {"train_data_path": str(TEACHER_CACHE) if "teacher" in config["train_data_path"] else train,
                 "validation_data_path": dev, "trainer.num_epochs": 1}
    if "test_data_path" in config:
        overrides["test_data_path"] = dev
    for reader in ("dataset_reader", "validation_dataset_reader"):  # fixtures are too small to subsample
        if config.get(reader, {}).get("sample_every", 1) != 1:
            overrides[f"{reader}.sample_every"] = 1
            overrides[f"{reader}.sample_offset"] = 0
    if "text_paths" in vocabulary:
        overrides["vocabulary.text_paths"] = [train]
    if vocabulary.get("type") == "from_files":  # DAN(KD+FT): a finished DAN(KD) run
        run = tiny_named_dan_run() if config["dataset_reader"].get("label_names") else tiny_dan_run()
        overrides["vocabulary.directory"] = str(run / "vocabulary")
        overrides["model.initializer.regexes"] = [[".*", {"type": "pretrained",
                                                          "weights_file_path": str(run / "best.th")}]]
        overrides["model.embedding_dim"], overrides["model.hidden_dim"] = 8, 6
    return overrides


@pytest.mark.parametrize("config_path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_config_builds(config_path: Path, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    raw = Params.from_file(str(config_path)).as_dict()
    params = Params.from_file(str(config_path), json.dumps(_fixture_overrides(raw, config_path.name)))
    train_loop = TrainModel.from_params(params=params, serialization_dir=str(tmp_path), local_rank=0)
    assert train_loop.model is not None and train_loop.trainer is not None
    if raw["model"]["type"] == "ngram_dan":
        assert "grad_norm" not in raw["trainer"]  # the trainer's clipping would reach the sparse table
        assert raw["trainer"]["optimizer"]["type"] == "green_hybrid_adam"


def test_every_dataset_has_teacher_and_three_student_stages():
    names = {p.stem for p in CONFIGS}
    for dataset in FIXTURE_FOR:
        assert {f"teacher_{dataset}", f"dan_scratch_{dataset}", f"dan_kd_{dataset}", f"dan_kd_ft_{dataset}"} <= names


def test_teacher_configs_point_at_the_local_minilm_package():
    raw = Params.from_file(str(REPO_ROOT / "training_configs" / "dan" / "teacher_sst2.jsonnet")).as_dict()
    model_name = raw["model"]["text_field_embedder"]["token_embedders"]["tokens"]["model_name"]
    assert (Path(model_name) / "config.json").exists() and (Path(model_name) / "model.safetensors").exists()
