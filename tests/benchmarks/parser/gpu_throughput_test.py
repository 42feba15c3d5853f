import hashlib

import torch

from benchmarks.parser import gpu_throughput
from tests.conftest import FIXTURES

TEST_FILE = FIXTURES / "ud" / "synthetic-tiny.conllu"


def test_without_nvidia_smi_there_are_no_power_samples_and_no_energy_figure(monkeypatch):
    monkeypatch.setenv("PATH", "")
    with gpu_throughput.PowerSampler() as sampler:
        pass
    assert sampler.watts == [] and sampler.mean_watts is None


def test_a_cpu_only_run_times_the_archive_on_one_thread(quickstart_archive, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    rows = gpu_throughput.measure(quickstart_archive, [32, 256], repeats=1, test_file=TEST_FILE)
    words = sum(1 for line in TEST_FILE.read_text().splitlines() if line[:1].isdigit())
    assert len(rows) == 1 and rows[0]["batch"] == 32 and rows[0]["tokens"] == words
    assert rows[0]["tokens/s"] > 0 and rows[0]["Wh per M tokens"] is None
    assert rows[0]["CPU-s per M tokens"] > 0


def test_an_archive_is_named_by_its_file_and_sha256_not_its_path(tmp_path):
    archive = tmp_path / "deep" / "model.tar.gz"
    archive.parent.mkdir()
    archive.write_bytes(b"weights")
    assert gpu_throughput._described(archive) == {
        "file": "model.tar.gz",
        "sha256": hashlib.sha256(b"weights").hexdigest(),
    }
