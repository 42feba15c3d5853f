"""Metrics that add up across DDP workers: attachment scores (parser) and span F1 (LD-Net tagger).

Outside distributed runs allennlp's figures are unchanged (tests/distributed/metrics_test.py).

- `AttachmentScores.__call__` all-reduces its per-token `(batch, timesteps)` tensors *before*
  summing them. Workers see batches of different shapes, so the collective fails (gloo on CPU
  aborts the worker: "Received data size doesn't match expected size"; with NCCL it can hang or
  add up unrelated positions). The replacement sums locally and reduces six counts in one
  `all_reduce`.
- `SpanBasedF1Measure.get_metric` raises "Distributed aggregation for SpanBasedF1Measure is
  currently not supported". The replacement gathers the three per-label counters of every worker
  (`all_gather_object`, which every worker reaches together because AllenNLP asks all of them for
  metrics after each batch) and computes the figures from the totals.
"""

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional

import torch
import torch.distributed as dist

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

if TYPE_CHECKING:
    from allennlp.training.metrics.attachment_scores import AttachmentScores
    from allennlp.training.metrics.span_based_f1_measure import SpanBasedF1Measure

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

ORIGINAL_ATTACHMENT_SCORES_CALL: Optional[Callable[..., None]] = None  # allennlp's own, for tests
ORIGINAL_SPAN_F1_GET_METRIC: Optional[Callable[..., dict[str, float]]] = None


def _attachment_scores_call(
    self: "AttachmentScores",
    predicted_indices: torch.Tensor,
    predicted_labels: torch.Tensor,
    gold_indices: torch.Tensor,
    gold_labels: torch.Tensor,
    mask: Optional[torch.Tensor] = None,
) -> None:
    """Same counts as allennlp's `AttachmentScores.__call__`, reduced as scalars across workers."""
    from allennlp.nn.util import dist_reduce_sum

    if mask is None:
        mask = torch.ones_like(predicted_indices).bool()
    predicted_indices, predicted_labels, gold_indices, gold_labels, mask = self.detach_tensors(
        predicted_indices, predicted_labels, gold_indices, gold_labels, mask
    )
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
    counts = torch.stack(
        [
            correct_indices.sum(),
            unlabeled_exact.sum(),
            correct_both.sum(),
            labeled_exact.sum(),
            torch.tensor(correct_indices.size(0), device=mask.device),
            mask.sum(),
        ]
    ).double()
    # (6,): one collective per batch instead of six, identical in shape on every worker
    totals = dist_reduce_sum(counts).tolist()
    self._unlabeled_correct += totals[0]
    self._exact_unlabeled_correct += totals[1]
    self._labeled_correct += totals[2]
    self._exact_labeled_correct += totals[3]
    self._total_sentences += totals[4]
    self._total_words += totals[5]


def _span_f1_get_metric(self: "SpanBasedF1Measure", reset: bool = False) -> dict[str, float]:
    """allennlp's span F1 from the counts of every worker."""
    from allennlp.common.util import is_distributed

    assert ORIGINAL_SPAN_F1_GET_METRIC is not None  # set by `apply` before this can be called
    if not is_distributed():
        return ORIGINAL_SPAN_F1_GET_METRIC(self, reset)
    local = (dict(self._true_positives), dict(self._false_positives), dict(self._false_negatives))
    gathered: list[Any] = [None] * dist.get_world_size()
    dist.all_gather_object(gathered, local)
    totals: list[defaultdict[str, int]] = [defaultdict(int), defaultdict(int), defaultdict(int)]
    for counts in gathered:
        for total, part in zip(totals, counts):
            for tag, value in part.items():
                total[tag] += value
    true_positives, false_positives, false_negatives = totals
    metrics: dict[str, float] = {}
    for tag in set(true_positives) | set(false_positives) | set(false_negatives):
        precision, recall, f1 = self._compute_metrics(true_positives[tag], false_positives[tag], false_negatives[tag])
        metrics.update({f"precision-{tag}": precision, f"recall-{tag}": recall, f"f1-measure-{tag}": f1})
    precision, recall, f1 = self._compute_metrics(
        sum(true_positives.values()), sum(false_positives.values()), sum(false_negatives.values())
    )
    metrics.update({"precision-overall": precision, "recall-overall": recall, "f1-measure-overall": f1})
    if reset:
        self.reset()
    return metrics


def apply() -> bool:
    """Install both replacements; True if this call installed either."""
    global ORIGINAL_ATTACHMENT_SCORES_CALL, ORIGINAL_SPAN_F1_GET_METRIC
    from allennlp.training.metrics.attachment_scores import AttachmentScores
    from allennlp.training.metrics.span_based_f1_measure import SpanBasedF1Measure

    changed = False
    if not getattr(AttachmentScores.__call__, "_green_nlp_patched", False):
        ORIGINAL_ATTACHMENT_SCORES_CALL = AttachmentScores.__call__
        _attachment_scores_call._green_nlp_patched = True  # type: ignore[attr-defined]
        AttachmentScores.__call__ = _attachment_scores_call  # type: ignore[method-assign]
        changed = True
    if SpanBasedF1Measure.get_metric is not _span_f1_get_metric:
        ORIGINAL_SPAN_F1_GET_METRIC = SpanBasedF1Measure.get_metric
        SpanBasedF1Measure.get_metric = _span_f1_get_metric  # type: ignore[method-assign]
        changed = True
    return changed
