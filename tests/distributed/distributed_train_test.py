"""Real `allennlp train` with two CPU worker processes (torch DDP over gloo) on the fixtures.

Each run spawns three Python processes, so there is one run per config family and every check
of that family reads the same run.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from allennlp.models.archival import load_archive

from tests.conftest import FIXTURES, REPO_ROOT

DEV = FIXTURES / "ud" / "synthetic-tiny.conllu"
TEST = FIXTURES / "ud" / "synthetic-dev.conllu"  # the test_data_path of fixtures/distributed/parser.jsonnet


def _train(config: str, serialization_dir: Path, **extra_env: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", **extra_env}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            str(FIXTURES / "distributed" / config),
            "-s",
            str(serialization_dir),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )


def _assert_trained_by_two_workers(run: Path, result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 0, result.stderr[-4000:]
    for rank in (0, 1):
        log = (run / f"out_worker{rank}.log").read_text()
        assert f"Worker {rank} completed its entire epoch (training)" in log
    assert (run / "model.tar.gz").exists()


def _evaluate_in_one_process(archive_path: Path, data: Path = DEV) -> dict:
    """The archive's metrics on the whole of `data`, in this (non-distributed) process."""
    archive = load_archive(str(archive_path))
    reader, model = archive.validation_dataset_reader, archive.model.eval()
    instances = list(reader.read(str(data)))
    for instance in instances:
        reader.apply_token_indexers(instance)
    model.get_metrics(reset=True)
    with torch.no_grad():
        model.forward_on_instances(instances)
    return model.get_metrics(reset=True)


@pytest.fixture(scope="module")
def parser_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("ddp_parser") / "run"
    return run, _train("parser.jsonnet", run)


@pytest.fixture(scope="module")
def student_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("ddp_student") / "run"
    return run, _train("parser_student.jsonnet", run)


def test_parser_trains_with_two_cpu_workers(parser_run):
    run, result = parser_run
    _assert_trained_by_two_workers(run, result)
    config = json.loads((run / "config.json").read_text())
    assert config["distributed"]["cuda_devices"] == [-1, -1]


def test_distributed_validation_metrics_count_every_sentence_once(parser_run):
    """Workers validate half of the dev set each; the reduced UAS/LAS must equal one process's
    figures on the whole set (with one epoch, the archive holds the validated weights)."""
    run, result = parser_run
    _assert_trained_by_two_workers(run, result)
    metrics = json.loads((run / "metrics.json").read_text())
    single = _evaluate_in_one_process(run / "model.tar.gz")
    assert metrics["validation_UAS"] == pytest.approx(single["UAS"], abs=1e-9)
    assert metrics["validation_LAS"] == pytest.approx(single["LAS"], abs=1e-9)
    assert metrics["validation_upos_accuracy"] == pytest.approx(single["upos_accuracy"], abs=1e-9)


def test_test_set_evaluation_after_distributed_training_covers_the_whole_file(parser_run):
    """`evaluate_on_test` runs in the primary worker alone: it must neither wait for the others
    nor read only its own shard of the test file."""
    run, result = parser_run
    _assert_trained_by_two_workers(run, result)
    metrics = json.loads((run / "metrics.json").read_text())
    single = _evaluate_in_one_process(run / "model.tar.gz", TEST)
    assert metrics["test_UAS"] == pytest.approx(single["UAS"], abs=1e-9)
    assert metrics["test_LAS"] == pytest.approx(single["LAS"], abs=1e-9)


def test_distillation_loads_a_teacher_in_each_worker(student_run):
    run, result = student_run
    _assert_trained_by_two_workers(run, result)
    for rank in (0, 1):
        assert (
            "distilling from fixtures/archives/tiny_parser_teacher.tar.gz"
            in (run / f"out_worker{rank}.log").read_text()
        )
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["training_loss"] == pytest.approx(metrics["training_loss"])  # finite, not NaN
    student = load_archive(str(run / "model.tar.gz")).model  # loads on its own, without the teacher
    assert not any("teacher" in key for key in student.state_dict())


# ------------------------------------------------------------------ the other model families
LDNET_ENV = {"LDNET_DATA": "fixtures/ldnet/data", "LDNET_LM_PRESET": "tiny"}


@pytest.fixture(scope="module")
def dan_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("ddp_dan") / "run"
    return run, _train("dan.jsonnet", run)


@pytest.fixture(scope="module")
def ldnet_run(tmp_path_factory, monkeypatch_module):
    run = tmp_path_factory.mktemp("ddp_ldnet") / "run"
    for key, value in LDNET_ENV.items():  # the archive's config reads them again when it is loaded
        monkeypatch_module.setenv(key, value)
    return run, _train("ldnet.jsonnet", run, **LDNET_ENV)


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_ngram_dan_trains_with_two_cpu_workers(dan_run):
    run, result = dan_run
    _assert_trained_by_two_workers(run, result)
    metrics = json.loads((run / "metrics.json").read_text())
    single = _evaluate_in_one_process(run / "model.tar.gz", FIXTURES / "dan" / "sst2_dev.tsv")
    assert metrics["validation_accuracy"] == pytest.approx(single["accuracy"], abs=1e-9)


def test_ldnet_tagger_trains_with_two_cpu_workers_and_reports_span_f1(ldnet_run):
    run, result = ldnet_run
    _assert_trained_by_two_workers(run, result)
    metrics = json.loads((run / "metrics.json").read_text())
    single = _evaluate_in_one_process(run / "model.tar.gz", FIXTURES / "ldnet" / "data" / "ner_conll2003_dev.txt")
    for key in ("precision-overall", "recall-overall", "f1-measure-overall"):
        assert metrics[f"validation_{key}"] == pytest.approx(single[key], abs=1e-9)
    assert "test_f1-measure-overall" in metrics
