"""Distillation from precomputed teacher logits (the n-gram DAN's teacher never runs in training)."""

from dataclasses import dataclass
from typing import Optional

import torch

from green_nlp.nn.distillation import masked_kl_divergence
from green_nlp.training.distiller import Distiller


@dataclass(frozen=True)
class LogitDistillationInput:
    """What a classifier student gives its distiller: its `logits` (batch, classes), and the
    teacher's `teacher_logits` (batch, classes) and/or gold `labels` (batch,) where known."""

    logits: torch.Tensor
    teacher_logits: Optional[torch.Tensor] = None
    labels: Optional[torch.Tensor] = None


class LogitDistiller(Distiller[LogitDistillationInput]):
    """
    Turns student logits, teacher logits and/or gold labels into one loss:
    `kl_weight * T^2 * KL(teacher_T || student_T) + ce_weight * CE(student, gold)` when both are
    given; the KL term alone (unweighted) for unlabeled text, as in the paper's distillation stage;
    plain CE when there is no teacher. Plain object, not a module: nothing enters the state_dict.
    """

    def loss(self, inputs: LogitDistillationInput) -> torch.Tensor:
        logits, teacher_logits, labels = inputs.logits, inputs.teacher_logits, inputs.labels
        ce = torch.nn.functional.cross_entropy(logits, labels) if labels is not None else None
        if teacher_logits is None:
            if ce is None:
                raise ValueError("a loss needs gold labels or teacher logits")
            return ce
        kl = masked_kl_divergence(logits, teacher_logits, logits.new_ones(logits.shape[:-1]), self.temperature)
        if ce is None:
            return kl
        return self.kl_weight * kl + self.ce_weight * ce
