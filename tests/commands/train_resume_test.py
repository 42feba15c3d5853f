"""`allennlp train -r` picks up an interrupted run where it stopped."""

import json
import os
import signal
import subprocess
import sys
import time

from tests.conftest import FIXTURES, REPO_ROOT

CONFIG = FIXTURES / "parser" / "experiment.jsonnet"
OVERRIDES = json.dumps({"trainer.num_epochs": 40, "trainer.patience": 40})


def _train_command(serialization_dir, *extra):
    return [
        sys.executable,
        "-m",
        "allennlp",
        "train",
        str(CONFIG),
        "-s",
        str(serialization_dir),
        "-o",
        OVERRIDES,
        "--include-package",
        "green_nlp",
        *extra,
    ]


def test_killed_training_resumes_with_recover(tmp_path):
    run = tmp_path / "run"
    process = subprocess.Popen(
        _train_command(run), cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.time() + 240
    while not (run / "metrics_epoch_2.json").exists():
        assert process.poll() is None, "training ended before it could be interrupted"
        assert time.time() < deadline, "training never reached epoch 2"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # a crash: no clean shutdown, no archive
    process.wait()
    assert not (run / "model.tar.gz").exists()
    first_epoch_written = (run / "metrics_epoch_0.json").stat().st_mtime

    resumed = subprocess.run(_train_command(run, "-r"), cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert (run / "model.tar.gz").exists()
    assert (run / "metrics_epoch_0.json").stat().st_mtime == first_epoch_written  # not re-trained
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["epoch"] == 39
