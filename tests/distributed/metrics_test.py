"""The metric fixes of green_nlp.patches.ddp_metrics: AttachmentScores gives allennlp's figures in
one process and correct sums across two gloo workers whose batches differ in shape (which crashes
allennlp's own version); SpanBasedF1Measure, which allennlp refuses to report in distributed runs,
gives the figures of one process that saw both workers' batches."""

import os
import socket

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from allennlp.data import Vocabulary
from allennlp.training.metrics import SpanBasedF1Measure
from allennlp.training.metrics.attachment_scores import AttachmentScores

from green_nlp.patches import ddp_metrics


def _batch(seed: int, batch: int, length: int):
    generator = torch.Generator().manual_seed(seed)
    predicted = torch.randint(0, length, (batch, length), generator=generator)
    gold = torch.where(
        torch.rand(batch, length, generator=generator) < 0.6,
        predicted,
        torch.randint(0, length, (batch, length), generator=generator),
    )
    labels_p = torch.randint(0, 3, (batch, length), generator=generator)
    labels_g = torch.where(
        torch.rand(batch, length, generator=generator) < 0.7,
        labels_p,
        torch.randint(0, 3, (batch, length), generator=generator),
    )
    lengths = torch.randint(1, length + 1, (batch,), generator=generator)
    mask = torch.arange(length)[None, :] < lengths[:, None]
    return predicted, labels_p, gold, labels_g, mask


TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def _span_f1() -> SpanBasedF1Measure:
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(TAGS, "labels")
    return SpanBasedF1Measure(vocab, "labels", label_encoding="BIO")


def _tag_batch(seed: int, batch: int, length: int):
    generator = torch.Generator().manual_seed(100 + seed)
    gold = torch.randint(0, len(TAGS), (batch, length), generator=generator)
    predicted = torch.where(
        torch.rand(batch, length, generator=generator) < 0.7,
        gold,
        torch.randint(0, len(TAGS), (batch, length), generator=generator),
    )
    return torch.nn.functional.one_hot(predicted, len(TAGS)).float(), gold, torch.ones(batch, length).bool()


def test_patch_is_installed_and_matches_allennlp_in_one_process():
    assert getattr(AttachmentScores.__call__, "_green_nlp_patched", False)
    original = ddp_metrics.ORIGINAL_ATTACHMENT_SCORES_CALL
    ours, theirs = AttachmentScores(ignore_classes=[2]), AttachmentScores(ignore_classes=[2])
    for seed in range(5):
        batch = _batch(seed, batch=3 + seed, length=4 + 2 * seed)
        ours(*batch)
        original(theirs, *batch)
    assert ours.get_metric() == pytest.approx({k: float(v) for k, v in theirs.get_metric().items()})


def _worker(rank: int, port: int, out_dir: str) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=2)
    ddp_metrics.apply()  # the patch, in this fresh process

    metric = AttachmentScores()
    metric(*_batch(seed=rank, batch=2 + rank, length=5 + 3 * rank))  # shapes differ between workers
    span_f1 = _span_f1()
    span_f1(*_tag_batch(seed=rank, batch=3 + rank, length=6 + 2 * rank))
    torch.save(
        {"attachment": metric.get_metric(), "span_f1": span_f1.get_metric()}, os.path.join(out_dir, f"rank{rank}.pt")
    )
    dist.destroy_process_group()


def test_two_workers_with_different_batch_shapes_sum_their_counts(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    mp.spawn(_worker, args=(port, str(tmp_path)), nprocs=2, join=True)
    attachment, span_f1 = AttachmentScores(), _span_f1()
    for rank in (0, 1):  # both workers' batches in one process
        attachment(*_batch(seed=rank, batch=2 + rank, length=5 + 3 * rank))
        span_f1(*_tag_batch(seed=rank, batch=3 + rank, length=6 + 2 * rank))
    expected_f1 = span_f1.get_metric()
    assert 0 < expected_f1["f1-measure-overall"] < 1  # neither trivial nor perfect
    for rank in (0, 1):
        result = torch.load(tmp_path / f"rank{rank}.pt", weights_only=True)
        assert result["attachment"] == pytest.approx(attachment.get_metric())
        assert result["span_f1"] == pytest.approx(expected_f1)
