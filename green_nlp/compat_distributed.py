"""A narrow fix that lets allennlp 2.10.1's distributed (DDP) training validate a parser.

`AttachmentScores.__call__` all-reduces its per-token `(batch, timesteps)` tensors *before*
summing them. Workers see different batches, so those tensors differ in shape, and the
collective fails (gloo on CPU aborts the worker: "Received data size doesn't match expected
size"; on GPU with NCCL it can hang or add up unrelated positions). Summing locally first and
reducing the six counts in one `all_reduce` gives the same figures on one process and correct
ones across workers. Applied on import of green_nlp; idempotent; a no-op where the metric
already reduces scalars.
"""
from typing import Optional

import torch
from allennlp.nn.util import dist_reduce_sum
from allennlp.training.metrics.attachment_scores import AttachmentScores

ORIGINAL_ATTACHMENT_SCORES_CALL = None  # allennlp's own, kept for comparison in tests


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


patch_attachment_scores()
