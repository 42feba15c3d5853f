"""The TrainerCallback for students whose teacher logits are precomputed into the data."""

import logging
from typing import Any

from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.training.callbacks.distillation_schedule import DistillationSchedule
from green_nlp.training.logit_distiller import LogitDistiller

logger = logging.getLogger(__name__)


@TrainerCallback.register("green_logit_distillation")
class LogitDistillationCallback(DistillationSchedule):
    """
    Gives the student a `LogitDistiller` with this run's temperature and weights (and teacher
    annealing, see `DistillationSchedule`). The teacher's logits come with each instance (a
    `teacher_logits` field read from a cache written by `allennlp green-label-teacher`), so no
    teacher is loaded.
    """

    distiller_kind = LogitDistiller

    def on_start(self, trainer: Any, is_primary: bool = True, **kwargs: Any) -> None:
        super().on_start(trainer, is_primary, **kwargs)
        self.distiller = LogitDistiller(self.temperature, self.kl_weight, self.ce_weight)
        self._attach(trainer)
        logger.info("distilling from precomputed teacher logits (temperature %s)", self.temperature)
