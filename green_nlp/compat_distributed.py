"""Narrow fixes for allennlp 2.10.1's distributed (DDP) training: metrics and the test evaluation.

Applied on `import green_nlp`, idempotent; outside distributed runs allennlp's figures are unchanged.

- `AttachmentScores.__call__` all-reduces its per-token `(batch, timesteps)` tensors *before*
  summing them. Workers see batches of different shapes, so the collective fails (gloo on CPU
  aborts the worker: "Received data size doesn't match expected size"; with NCCL it can hang or
  add up unrelated positions). The replacement sums locally and reduces six counts in one
  `all_reduce`.
- `SpanBasedF1Measure.get_metric` (the LD-Net tagger's span F1) raises "Distributed aggregation
  for SpanBasedF1Measure is currently not supported". The replacement gathers the three per-label
  counters of every worker (`all_gather_object`, which every worker reaches together because
  AllenNLP asks all of them for metrics after each batch) and computes the figures from the totals.
- `TrainModel.finish` (`evaluate_on_test`) runs in the primary worker only, after the others have
  finished, with the process group still up: a metric that reduces across workers then waits for
  peers that are gone (gloo: "Connection closed by peer"; NCCL: a hang), and the test instances
  were read at start-up as this worker's shard, so the figures would cover part of the file. The
  replacement leaves the process group and drops those instances first, so the test evaluation
  runs as in one process over the whole file.
"""
from collections import defaultdict
from typing import Any, Dict, Optional

import torch
import torch.distributed as dist
from allennlp.commands.train import TrainModel
from allennlp.common.util import is_distributed
from allennlp.nn.util import dist_reduce_sum
from allennlp.training.metrics.attachment_scores import AttachmentScores
from allennlp.training.metrics.span_based_f1_measure import SpanBasedF1Measure

ORIGINAL_ATTACHMENT_SCORES_CALL = None  # allennlp's own, kept for comparison in tests
ORIGINAL_SPAN_F1_GET_METRIC = SpanBasedF1Measure.get_metric
ORIGINAL_TRAIN_MODEL_FINISH = TrainModel.finish


def _attachment_scores_call(self: AttachmentScores, predicted_indices: torch.Tensor,
                            predicted_labels: torch.Tensor, gold_indices: torch.Tensor,
                            gold_labels: torch.Tensor, mask: Optional[torch.BoolTensor] = None) -> None:
    """Same counts as allennlp's `AttachmentScores.__call__`, reduced as scalars across workers."""
    predicted_indices, predicted_labels, gold_indices, gold_labels, mask = self.detach_tensors(
        predicted_indices, predicted_labels, gold_indices, gold_labels, mask)
    if mask is None:
        mask = torch.ones_like(predicted_indices).bool()
    mask = mask.bool()
    gold_labels = gold_labels.long()
    for label in self._ignore_classes:
        mask = mask & ~gold_labels.eq(label)
    # (batch, timesteps)
    correct_indices = predicted_indices.long().eq(gold_indices.long()).long() * mask
    correct_labels = predicted_labels.long().eq(gold_labels).long() * mask
    correct_both = correct_indices * correct_labels
    # (batch,)
    unlabeled_exact = (correct_indices + ~mask).prod(dim=-1)
    labeled_exact = (correct_both + ~mask).prod(dim=-1)
    counts = torch.stack([
        correct_indices.sum(), unlabeled_exact.sum(), correct_both.sum(), labeled_exact.sum(),
        torch.tensor(correct_indices.size(0), device=mask.device), mask.sum(),
    ]).double()
    # (6,): one collective per batch instead of six, identical in shape on every worker
    counts = dist_reduce_sum(counts).tolist()
    self._unlabeled_correct += counts[0]
    self._exact_unlabeled_correct += counts[1]
    self._labeled_correct += counts[2]
    self._exact_labeled_correct += counts[3]
    self._total_sentences += counts[4]
    self._total_words += counts[5]


def patch_attachment_scores() -> bool:
    """Install the scalar-reducing `AttachmentScores.__call__`; True if this call installed it."""
    global ORIGINAL_ATTACHMENT_SCORES_CALL
    if getattr(AttachmentScores.__call__, "_green_nlp_patched", False):
        return False
    ORIGINAL_ATTACHMENT_SCORES_CALL = AttachmentScores.__call__
    _attachment_scores_call._green_nlp_patched = True  # type: ignore[attr-defined]
    AttachmentScores.__call__ = _attachment_scores_call  # type: ignore[assignment]
    return True


def _span_f1_get_metric(self: SpanBasedF1Measure, reset: bool = False) -> Dict[str, float]:
    """allennlp's span F1 from the counts of every worker."""
    if not is_distributed():
        return ORIGINAL_SPAN_F1_GET_METRIC(self, reset)
    local = (dict(self._true_positives), dict(self._false_positives), dict(self._false_negatives))
    gathered = [None] * dist.get_world_size()
    dist.all_gather_object(gathered, local)
    totals = [defaultdict(int), defaultdict(int), defaultdict(int)]
    for counts in gathered:
        for total, part in zip(totals, counts):
            for tag, value in part.items():
                total[tag] += value
    true_positives, false_positives, false_negatives = totals
    metrics: Dict[str, float] = {}
    for tag in set(true_positives) | set(false_positives) | set(false_negatives):
        precision, recall, f1 = self._compute_metrics(true_positives[tag], false_positives[tag], false_negatives[tag])
        metrics.update({f"precision-{tag}": precision, f"recall-{tag}": recall, f"f1-measure-{tag}": f1})
    precision, recall, f1 = self._compute_metrics(sum(true_positives.values()), sum(false_positives.values()),
                                                  sum(false_negatives.values()))
    metrics.update({"precision-overall": precision, "recall-overall": recall, "f1-measure-overall": f1})
    if reset:
        self.reset()
    return metrics


def patch_span_f1() -> bool:
    """Install the distributed-capable `SpanBasedF1Measure.get_metric`; True if this call did."""
    if SpanBasedF1Measure.get_metric is _span_f1_get_metric:
        return False
    SpanBasedF1Measure.get_metric = _span_f1_get_metric  # type: ignore[assignment]
    return True


def _finish(self: TrainModel, metrics: Dict[str, Any]) -> None:
    """allennlp's `finish`, with the test evaluation (primary worker only) outside the process group."""
    if is_distributed() and self.evaluation_data_loader is not None and self.evaluate_on_test:
        dist.destroy_process_group()  # the other workers have already left: nothing to wait for
        loader = self.evaluation_data_loader
        reader = getattr(loader, "reader", None)
        if reader is not None:
            reader._set_distributed_info(None)  # readers without manual sharding cached their rank
        if getattr(loader, "_instances", None) is not None:
            loader._instances = None  # loaded at start-up as this worker's shard: read the whole file
    ORIGINAL_TRAIN_MODEL_FINISH(self, metrics)


def patch_train_model_finish() -> bool:
    if TrainModel.finish is _finish:
        return False
    TrainModel.finish = _finish  # type: ignore[assignment]
    return True


patch_attachment_scores()
patch_span_f1()
patch_train_model_finish()
