"""Every sparse-distillation config builds (reader, vocabulary, model, optimizer, trainer) with its
real-data paths pointed at the fixtures, as tests/training_config_test.py does for the others: the teachers,
the shipped model's recipe, and student.jsonnet for every DATASET and STAGE it takes."""

import json
from pathlib import Path
from typing import Optional

import pytest
from allennlp.commands.train import TrainModel
from allennlp.common import Params

from tests.conftest import REPO_ROOT
from tests.dan_helpers import DAN_FIXTURES, TEACHER_CACHE, tiny_dan_run, tiny_named_dan_run

FOLDER = REPO_ROOT / "training_configs" / "dan"
STUDENT = FOLDER / "student.jsonnet"
CONFIGS = sorted(p for p in FOLDER.glob("*.jsonnet") if p != STUDENT)
DATASETS = ("sst2", "sst2_full", "trec", "imdb", "imdb_full")
# (DATASET, STAGE) of student.jsonnet: three stages everywhere, and the corpus variations where they were run
STUDENTS = [(dataset, stage) for dataset in DATASETS for stage in ("scratch", "kd", "kd_ft")] + [
    ("sst2", "kd_augmented"),
    ("trec", "kd_train_only"),
    ("trec", "kd_questions"),
]
FIXTURE_FOR = {
    "sst2": ("sst2_train.tsv", "sst2_dev.tsv"),
    "trec": ("trec_tiny.txt", "trec_tiny.txt"),
    "imdb": ("imdb_tiny.jsonl.gz", "imdb_tiny.jsonl.gz"),
}


def _fixture_overrides(config: dict, name: str) -> dict:
    vocabulary = config.get("vocabulary", {})
    # the fixture teacher cache and the tiny DAN that DAN(KD+FT) starts from have SST-2's labels
    from_fixture_teacher = "teacher" in config["train_data_path"] or vocabulary.get("type") == "from_files"
    dataset = "sst2" if from_fixture_teacher else next(d for d in FIXTURE_FOR if d in name)
    train, dev = (str(DAN_FIXTURES / f) for f in FIXTURE_FOR[dataset])
    overrides = {
        "train_data_path": str(TEACHER_CACHE) if "teacher" in config["train_data_path"] else train,
        "validation_data_path": dev,
        "trainer.num_epochs": 1,
    }
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
        overrides["model.initializer.regexes"] = [
            [".*", {"type": "pretrained", "weights_file_path": str(run / "best.th")}]
        ]
        overrides["model.embedding_dim"], overrides["model.hidden_dim"] = 8, 6
    return overrides


def _build(config_path: Path, name: str, tmp_path: Path, ext_vars: Optional[dict[str, str]] = None) -> dict:
    raw = Params.from_file(str(config_path), ext_vars=ext_vars).as_dict()
    params = Params.from_file(str(config_path), json.dumps(_fixture_overrides(raw, name)), ext_vars=ext_vars)
    train_loop = TrainModel.from_params(params=params, serialization_dir=str(tmp_path), local_rank=0)
    assert train_loop.model is not None and train_loop.trainer is not None
    if raw["model"]["type"] in ("green_ngram_dan", "ngram_dan"):
        assert "grad_norm" not in raw["trainer"]  # the trainer's clipping would reach the sparse table
        assert raw["trainer"]["optimizer"]["type"] == "green_hybrid_adam"
    return raw


@pytest.mark.parametrize("config_path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_config_builds(config_path: Path, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    _build(config_path, config_path.name, tmp_path)


@pytest.mark.parametrize("dataset,stage", STUDENTS, ids=[f"{d}-{s}" for d, s in STUDENTS])
def test_every_student_builds(dataset, stage, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    raw = _build(STUDENT, dataset, tmp_path, {"DATASET": dataset, "STAGE": stage})
    kd_run = f"runs/dan/{dataset}/kd"
    if stage == "kd_ft":  # starts from kd's weights and vocabulary
        assert raw["vocabulary"] == {"type": "from_files", "directory": f"{kd_run}/vocabulary"}
    elif stage.startswith("kd"):  # the teacher's cache, KL
        assert raw["train_data_path"].startswith(f"runs/dan/{dataset}/")
        assert raw["trainer"]["callbacks"][0]["type"] == "green_logit_distillation"
    else:  # labeled data, cross-entropy, kd's n-gram vocabulary
        assert "callbacks" not in raw["trainer"]
        assert raw["train_data_path"].endswith(("train.tsv", "train.txt", "train.jsonl.gz"))


def test_every_dataset_has_a_teacher():
    names = {p.stem for p in CONFIGS}
    assert {f"teacher_{dataset}" for dataset in DATASETS} <= names  # the students: the matrix test above


def test_a_stage_a_dataset_was_not_run_with_is_refused_by_name():
    with pytest.raises(RuntimeError, match="STAGE must be one of kd, kd_ft, scratch, not kd_augmented"):
        Params.from_file(str(STUDENT), ext_vars={"DATASET": "sst2_full", "STAGE": "kd_augmented"})


def test_teacher_configs_point_at_the_local_minilm_package():
    raw = Params.from_file(str(REPO_ROOT / "training_configs" / "dan" / "teacher_sst2.jsonnet")).as_dict()
    model_name = raw["model"]["text_field_embedder"]["token_embedders"]["tokens"]["model_name"]
    assert (Path(model_name) / "config.json").exists() and (Path(model_name) / "model.safetensors").exists()
