"""training_configs/parser/ud_ewt_silver_student.jsonnet trains on mixed gold and silver batches
(`allennlp train`, fixture treebank, the fixture MiniLM teacher's parser cache), in each MODE."""

import json
import os
import subprocess
import sys

import pytest
from allennlp.common import Params
from allennlp.data import DatasetReader

from green_nlp.commands.green_label_teacher import label_corpus
from green_nlp.data.teacher_cache import file_sha256
from tests.conftest import FIXTURES
from tests.parser_teacher_helpers import minilm_parser_teacher

CONFIG = "training_configs/parser/ud_ewt_silver_student.jsonnet"
TREEBANK = str(FIXTURES / "ud" / "synthetic-tiny.conllu")


@pytest.fixture(scope="module")
def silver(tmp_path_factory):
    teacher = minilm_parser_teacher()
    cache = tmp_path_factory.mktemp("silver") / "fixture.jsonl"
    label_corpus(str(teacher), [str(FIXTURES / "raw_text.txt")], str(cache), format="lines", batch_size=4)
    return teacher, cache


@pytest.mark.parametrize("mode", ["soft", "hard", "none"])
def test_the_student_trains_on_gold_and_silver(silver, mode, tmp_path):
    teacher, cache = silver
    # what scripts/teacher_silver.sh leaves beside the teacher: the archive's sha256, as sha256sum prints it
    fingerprint = tmp_path / "model.tar.gz.sha256"
    fingerprint.write_text(f"{file_sha256(str(teacher))}  model.tar.gz\n")
    overrides = {
        "train_data_path": TREEBANK,
        "validation_data_path": TREEBANK,
        "test_data_path": None,
        "evaluate_on_test": False,
        "vocabulary.directory": str(teacher),
        "dataset_reader.silver_caches": [str(cache)],
        "dataset_reader.teacher_fingerprint": str(fingerprint),
        "vocabulary.lemma_lexicon_file": TREEBANK,
        "model.text_field_embedder.token_embedders.tokens.pretrained_file": None,
        "data_loader.batches_per_epoch": 3,
        "data_loader.batch_sampler.batch_size": 4,
        "trainer.num_epochs": 1,
    }
    env = {**os.environ, "SIZE": "20", "SILVER": "4", "MODE": mode, "OMP_NUM_THREADS": "1"}
    run = tmp_path / "run"
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", "train", CONFIG, "-s", str(run), "--include-package", "green_nlp"]
        + ["-o", json.dumps(overrides)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["training_loss"] > 0 and 0.0 <= metrics["validation_LAS"] <= 1.0
    # what the run read: the fixture's 12 gold sentences (repeated to gold_share 0.5) and 4 silver ones
    config = json.loads((run / "config.json").read_text())
    reader = DatasetReader.from_params(Params(config["dataset_reader"]))
    metadata = [instance["metadata"].metadata for instance in reader.read(TREEBANK)]
    silver_read = [m for m in metadata if "source" in m]
    assert len(silver_read) == (0 if mode == "none" else 4)
    assert sum("silver" in m for m in metadata) == (4 if mode == "soft" else 0)  # soft targets only in soft
    assert len(metadata) - len(silver_read) == 12
    callbacks = [c["type"] for c in config["trainer"].get("callbacks", [])]
    assert callbacks == (["green_silver_distillation"] if mode == "soft" else [])
    # the full-UD heads train beside the parser; silver words carry no LEMMA / FEATS / XPOS gold
    assert {"training_lemma_rules_accuracy", "training_feats_accuracy", "training_xpos_accuracy"} <= set(metrics)
    instances = list(reader.read(TREEBANK))
    for instance in instances:
        rules = instance["lemma_rules"]._indexed_labels or []  # type: ignore[attr-defined]
        if "source" in instance["metadata"].metadata:
            assert set(rules) == {-1} and set(instance["feats"]._indexed_labels) == {-1}  # type: ignore[attr-defined]
        else:
            assert rules == [] or -1 not in rules
