"""Models trained or exported once per run (in a temporary folder removed at exit), and the
predictors and runtime models the cases call."""

import functools
import json
from pathlib import Path
from typing import Any, Optional

from benchmarks.common import REPO
from benchmarks.robustness.cases.loaders import load_archive
from benchmarks.robustness.cases.workspace import work_folder


def _trained(config: Path, name: str, overrides: str = "") -> Path:
    """`allennlp train CONFIG -s FOLDER` (in this process); the archive's path."""
    import os

    from allennlp.commands.train import train_model_from_file

    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        train_model_from_file(str(config), str(work_folder() / name), overrides=overrides, force=True)
    finally:
        os.chdir(cwd)
    return work_folder() / name / "model.tar.gz"


@functools.cache
def dan_archive() -> Path:
    """The tiny n-gram DAN of the tests (fixture SST-2 sentences, seconds)."""
    return _trained(
        REPO / "fixtures" / "dan" / "dan_experiment.jsonnet",
        "dan",
        json.dumps({"trainer.num_epochs": 6, "trainer.patience": 6}),
    )


@functools.cache
def raw_text_parser() -> Path:
    """The quickstart parser (words + characters, predicts UPOS): reads raw text."""
    return _trained(REPO / "training_configs" / "parser" / "quickstart.jsonnet", "quickstart")


@functools.cache
def teacher_like_classifier() -> Path:
    """allennlp's `basic_classifier` read by `green_text_classification`, as the MiniLM teacher is
    built (training_configs/dan/teacher.libsonnet), with a small word embedding in place of MiniLM."""
    reader = {"type": "green_text_classification", "skip_unlabeled": True}
    config = {
        "dataset_reader": reader,
        "validation_dataset_reader": reader,
        "train_data_path": "fixtures/dan/sst2_train.tsv",
        "validation_data_path": "fixtures/dan/sst2_dev.tsv",
        "model": {
            "type": "basic_classifier",
            "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 8}}},
            "seq2vec_encoder": {"type": "boe", "embedding_dim": 8, "averaged": True},
        },
        "data_loader": {"batch_size": 8, "shuffle": False},
        "trainer": {"num_epochs": 2, "optimizer": {"type": "adam", "lr": 0.05}, "cuda_device": -1},
    }
    path = work_folder() / "teacher_like.json"
    path.write_text(json.dumps(config))
    return _trained(path, "teacher_like")


@functools.cache
def dan_folder() -> Path:
    """The DAN exported for the torch-free runtime (`allennlp green-export`)."""
    from green_nlp.export import export_archive

    return Path(export_archive(dan_archive(), work_folder() / "dan_onnx"))


@functools.cache
def predictor(archive_path: Path, name: Optional[str] = None, json_output: bool = True) -> Any:
    from allennlp.predictors import Predictor

    extra = {"output_format": "json"} if json_output and name == "green_dependency_parser" else None
    return Predictor.from_archive(load_archive(archive_path), name, extra_args=extra)


@functools.cache
def runtime_model(name: str) -> Any:
    from green_nlp.runtime import load

    return load(name)


@functools.cache
def tagger_folder() -> Path:
    """The committed fixture LD-Net tagger exported for the runtime (`allennlp green-export`)."""
    from benchmarks.robustness.cases.case import TAGGER
    from green_nlp.export import export_archive

    return Path(export_archive(TAGGER, work_folder() / "tagger_onnx"))
