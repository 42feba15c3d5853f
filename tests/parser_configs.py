"""Build a parser training config on the fixtures, as `allennlp train` would (seeds taken, reader, vocabulary,
model, optimizer, trainer and callbacks built): shared by the tests of training_configs/ and experiments/."""

import json
from pathlib import Path
from typing import Optional

from allennlp.commands.train import TrainModel
from allennlp.common import Params
from allennlp.common.util import prepare_environment

from tests.conftest import FIXTURES

TINY_CONLLU = str(FIXTURES / "ud" / "synthetic-tiny.conllu")
TEACHER_ARCHIVE = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"
DISTILLATION = ("green_parser_distillation", "green_distillation")  # the callback's name and its old one


def fixture_overrides(config: dict) -> dict:
    """Real-data paths, the teacher's vocabulary and archives pointed at the fixtures; one epoch."""
    overrides = {"train_data_path": TINY_CONLLU, "validation_data_path": TINY_CONLLU, "trainer.num_epochs": 1}
    if "test_data_path" in config:
        overrides["test_data_path"] = TINY_CONLLU
    embedders = config["model"].get("text_field_embedder", {}).get("token_embedders", {})
    if "pretrained_file" in embedders.get("tokens", {}):
        overrides["model.text_field_embedder.token_embedders.tokens.pretrained_file"] = str(
            FIXTURES / "emb" / "tiny_glove.50d.txt"
        )
    if config.get("vocabulary", {}).get("type") in ("from_files", "extend"):  # students: the teacher's vocabulary
        overrides["vocabulary.directory"] = str(TEACHER_ARCHIVE)
    for callback in config.get("trainer", {}).get("callbacks", []):
        if callback.get("type") not in DISTILLATION:
            continue
        # the callback reads the archives only when training starts; building it checks its settings
        teacher = (
            {"cross_fit_teacher_archives": [str(TEACHER_ARCHIVE)] * len(callback["cross_fit_teacher_archives"])}
            if "cross_fit_teacher_archives" in callback
            else {"teacher_archive": str(TEACHER_ARCHIVE)}
        )
        overrides["trainer.callbacks"] = [{**callback, **teacher}]
    return overrides


def read_config(path: Path, ext_vars: Optional[dict[str, str]] = None) -> dict:
    """The config as `allennlp train` reads it (the environment and `ext_vars` as external variables)."""
    return Params.from_file(str(path), ext_vars=ext_vars).as_dict(quiet=True)


def build_on_fixtures(path: Path, serialization_dir: Path, ext_vars: Optional[dict[str, str]] = None) -> TrainModel:
    raw = read_config(path, ext_vars)
    params = Params.from_file(str(path), json.dumps(fixture_overrides(raw)), ext_vars=ext_vars)
    prepare_environment(params)  # takes the seeds, as `allennlp train` does before building
    return TrainModel.from_params(params=params, serialization_dir=str(serialization_dir), local_rank=0)
