"""Every parser and peer training config builds (reader, vocabulary, model, optimizer, scheduler, trainer), with its
real-data paths pointed at the fixtures, as allennlp-models' training_config_test does."""
import json
from pathlib import Path

import pytest
from allennlp.commands.train import TrainModel
from allennlp.common import Params
from allennlp.common.plugins import import_plugins
from allennlp.common.util import prepare_environment

from tests.conftest import FIXTURES, REPO_ROOT

import_plugins()  # the peer configs use allennlp-models components, as `allennlp train` would

# LD-Net and n-gram DAN configs read other formats; tests/ldnet_training_config_test.py and
# tests/dan_training_config_test.py build those on their own fixtures.
CONFIGS = sorted(p for family in ("parser", "peers") for p in (REPO_ROOT / "training_configs" / family).rglob("*.jsonnet"))
TINY_CONLLU = str(FIXTURES / "ud" / "synthetic-tiny.conllu")
TEACHER_ARCHIVE = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"


def _fixture_overrides(config: dict) -> dict:
    overrides = {"train_data_path": TINY_CONLLU, "validation_data_path": TINY_CONLLU, "trainer.num_epochs": 1}
    if "test_data_path" in config:
        overrides["test_data_path"] = TINY_CONLLU
    embedders = config["model"].get("text_field_embedder", {}).get("token_embedders", {})
    if "pretrained_file" in embedders.get("tokens", {}):
        overrides["model.text_field_embedder.token_embedders.tokens.pretrained_file"] = str(
            FIXTURES / "emb" / "tiny_glove.50d.txt")
    if config.get("vocabulary", {}).get("type") == "from_files":  # students: the teacher's vocabulary
        overrides["vocabulary.directory"] = str(TEACHER_ARCHIVE)
    callbacks = config.get("trainer", {}).get("callbacks", [])
    for callback in callbacks:
        if callback.get("type") != "green_distillation":
            continue
        # the callback reads the archives only when training starts; building it checks its settings
        teacher = ({"cross_fit_teacher_archives": [str(TEACHER_ARCHIVE)] * len(callback["cross_fit_teacher_archives"])}
                   if "cross_fit_teacher_archives" in callback else {"teacher_archive": str(TEACHER_ARCHIVE)})
        overrides["trainer.callbacks"] = [{**callback, **teacher}]
    return overrides


@pytest.mark.parametrize("config_path", CONFIGS, ids=[str(p.relative_to(REPO_ROOT)) for p in CONFIGS])
def test_config_builds(config_path: Path, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    raw = Params.from_file(str(config_path)).as_dict()
    params = Params.from_file(str(config_path), json.dumps(_fixture_overrides(raw)))
    prepare_environment(params)  # takes the seeds, as `allennlp train` does before building
    train_loop = TrainModel.from_params(params=params, serialization_dir=str(tmp_path), local_rank=0)
    assert train_loop.model is not None
    assert train_loop.trainer is not None


def test_there_is_a_config_per_treebank():
    names = {p.name for p in CONFIGS}
    assert {"ud_ewt.jsonnet", "ud_ewt_raw_text.jsonnet", "ud_tamil_ttb.jsonnet", "ud_wolof_wtb.jsonnet",
            "ud_chinese_gsd_v1_3.jsonnet", "quickstart.jsonnet"} <= names


@pytest.mark.parametrize("treebank", ["ud_ewt", "ud_tamil_ttb", "ud_wolof_wtb", "ud_chinese_gsd_v1_3"])
def test_every_treebank_has_teacher_and_eight_student_configs(treebank):
    students = {p.stem for p in (REPO_ROOT / "training_configs" / "parser" / "students").glob(f"{treebank}_*.jsonnet")}
    assert students == {f"{treebank}_{kind}{fraction}" for kind in "db" for fraction in (20, 40, 60, 80)}
    sizes = json.loads((REPO_ROOT / "training_configs" / "parser" / "student_sizes" / f"{treebank}.json").read_text())
    for fraction, size in sizes["students"].items():
        assert abs(size["fraction"] - int(fraction) / 100) < 0.01  # the paper reached 19.2-20.5 %


@pytest.mark.parametrize("treebank,teacher", [("ud_wolof_wtb", ""), ("ud_ewt", ""), ("ud_ewt", "minilm")])
def test_cross_fit_students_list_one_teacher_per_fold_in_fold_order(treebank, teacher):
    prefix = f"{teacher}_" if teacher else ""
    folds = Params.from_file(str(REPO_ROOT / "training_configs" / "parser" / "cross_fit" /
                                 f"{treebank}_{prefix}fold_teacher.jsonnet")).as_dict()["dataset_reader"]["cross_fit_folds"]
    students = sorted(path for path in (REPO_ROOT / "training_configs" / "parser" / "ablations").glob(
        f"{treebank}_*cross_fit*.jsonnet") if ("_minilm_" in path.name) == (teacher == "minilm"))
    assert students
    for path in students:
        (callback,) = Params.from_file(str(path)).as_dict()["trainer"]["callbacks"]
        archives = callback["cross_fit_teacher_archives"]
        assert archives == [f"runs/parser/{treebank}/{prefix}fold_teachers/fold{i}/model.tar.gz" for i in range(folds)], path
