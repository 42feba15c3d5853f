"""`green-label-teacher --ray` writes the one-process teacher-label cache byte for byte (MiniLM and
DAN teachers), resumes it the same way, and survives an actor that dies mid-run."""

import pytest

from green_nlp.commands.green_label_teacher import label_corpus
from green_nlp.data.teacher_cache import read_cache
from green_nlp.distributed_ray.options import RayOptions
from tests.dan_helpers import DAN_FIXTURES, tiny_dan_run
from tests.distributed_ray.conftest import minilm_teacher, needs_ray

INPUTS = [str(DAN_FIXTURES / "sst2_train.tsv"), str(DAN_FIXTURES / "unlabeled.jsonl")]
TWO_ACTORS = RayOptions(actors=2)
pytestmark = needs_ray


@pytest.fixture(scope="module")
def minilm():
    return str(minilm_teacher())


def test_minilm_cache_is_the_one_process_cache(minilm, ray_cluster, tmp_path):
    one, on_ray = tmp_path / "one.teacher.jsonl", tmp_path / "ray.teacher.jsonl"
    assert label_corpus(minilm, INPUTS, str(one), batch_size=4, chunk_batches=2) == 70
    assert label_corpus(minilm, INPUTS, str(on_ray), batch_size=4, chunk_batches=2, ray=TWO_ACTORS) == 70
    assert on_ray.read_bytes() == one.read_bytes()
    assert next(read_cache(str(on_ray))).text == "its ending is a mess and lifeless"  # readable as a DAN reads it


def test_dan_cache_resumes_on_ray_after_a_torn_line(ray_cluster, tmp_path):
    teacher = str(tiny_dan_run() / "model.tar.gz")
    full, partial = tmp_path / "full.jsonl", tmp_path / "partial.jsonl"
    label_corpus(teacher, INPUTS, str(full), batch_size=5, chunk_batches=2)
    lines = full.read_text().splitlines(keepends=True)
    partial.write_text("".join(lines[:31]) + lines[31][:9])  # as a killed run leaves it
    assert label_corpus(teacher, INPUTS, str(partial), batch_size=5, chunk_batches=2, ray=TWO_ACTORS) == 70
    assert partial.read_bytes() == full.read_bytes()


def test_a_killed_teacher_actor_loses_and_doubles_nothing(minilm, ray_cluster, tmp_path):
    one, on_ray = tmp_path / "one.jsonl", tmp_path / "ray.jsonl"
    label_corpus(minilm, INPUTS, str(one), batch_size=2, chunk_batches=2)
    ray_cluster.write_text("4")  # the first actor to get its 4th chunk exits (see pool.crash_point)
    label_corpus(minilm, INPUTS, str(on_ray), batch_size=2, chunk_batches=2, ray=TWO_ACTORS)
    assert not ray_cluster.exists(), "no actor crashed: the test would prove nothing"
    assert on_ray.read_bytes() == one.read_bytes()
