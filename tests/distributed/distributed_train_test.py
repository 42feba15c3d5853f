"""Real `allennlp train` with two CPU worker processes (torch DDP over gloo) on the fixtures.

Each run spawns three Python processes, so there is one run per config family and every check
of that family reads the same run.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from allennlp.models.archival import load_archive

from tests.conftest import FIXTURES, REPO_ROOT

DEV = FIXTURES / "ud" / "synthetic-tiny.conllu"


def _train(config: str, serialization_dir: Path) -> subprocess.CompletedProcess:
    env = {**__import__("os").environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "allennlp", "train", str(FIXTURES / "distributed" / config), "-s",
         str(serialization_dir), "--include-package", "green_nlp"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=900, env=env)


def _assert_trained_by_two_workers(run: Path, result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 0, result.stderr[-4000:]
    for rank in (0, 1):
        log = (run / f"out_worker{rank}.log").read_text()
        assert f"Worker {rank} completed its entire epoch (training)" in log
    assert (run / "model.tar.gz").exists()


def _evaluate_in_one_process(archive_path: Path) -> dict:
    archive = load_archive(str(archive_path))
    reader, model = archive.validation_dataset_reader, archive.model.eval()
    instances = list(reader.read(str(DEV)))
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


def test_distillation_loads_a_teacher_in_each_worker(student_run):
    run, result = student_run
    _assert_trained_by_two_workers(run, result)
    for rank in (0, 1):
        assert "distilling from fixtures/archives/tiny_parser_teacher.tar.gz" in (
            run / f"out_worker{rank}.log").read_text()
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["training_loss"] == pytest.approx(metrics["training_loss"])  # finite, not NaN
    student = load_archive(str(run / "model.tar.gz")).model  # loads on its own, without the teacher
    assert not any("teacher" in key for key in student.state_dict())
