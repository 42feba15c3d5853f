"""Tiny n-gram DANs trained once per test process (a few seconds each), shared by the DAN tests."""

import functools
import json
import os
from pathlib import Path

import _jsonnet
from allennlp.commands.train import train_model_from_file

from tests.conftest import FIXTURES, REPO_ROOT
from tests.process_tmp import process_tmp_dir

DAN_FIXTURES = FIXTURES / "dan"
DAN_CONFIG = DAN_FIXTURES / "dan_experiment.jsonnet"
DAN_KD_CONFIG = DAN_FIXTURES / "dan_kd_experiment.jsonnet"
TEACHER_CACHE = DAN_FIXTURES / "sst2_tiny.teacher.jsonl"
LABELS_LIBSONNET = REPO_ROOT / "training_configs" / "dan" / "labels.libsonnet"


def sst2_label_names() -> dict[str, str]:
    """SST-2's readable class names, as the SST-2 configs set them."""
    return json.loads(_jsonnet.evaluate_file(str(LABELS_LIBSONNET)))["sst2"]


def train_dan(config: Path, serialization_dir: Path, **overrides) -> Path:
    cwd = os.getcwd()
    os.chdir(REPO_ROOT)  # fixture configs name paths relative to the repo root
    try:
        train_model_from_file(str(config), str(serialization_dir), overrides=json.dumps(overrides), force=True)
    finally:
        os.chdir(cwd)
    return serialization_dir


@functools.cache
def tiny_dan_run() -> Path:
    """Serialization dir of a tiny DAN trained on the fixture sentences (archive: model.tar.gz)."""
    return train_dan(
        DAN_CONFIG,
        process_tmp_dir("tiny_dan_") / "run",
        **{"trainer.num_epochs": 6, "trainer.patience": 6},
    )


@functools.cache
def tiny_named_dan_run() -> Path:
    """As `tiny_dan_run`, with SST-2's label names on both readers (what the SST-2 configs train):
    its vocabulary, predictions and `doc.cats` say "negative"/"positive", not "0"/"1"."""
    names = sst2_label_names()
    return train_dan(
        DAN_CONFIG,
        process_tmp_dir("tiny_named_dan_") / "run",
        **{
            "trainer.num_epochs": 6,
            "trainer.patience": 6,
            "dataset_reader.label_names": names,
            "validation_dataset_reader.label_names": names,
        },
    )
