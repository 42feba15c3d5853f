"""The TrainerCallback for students trained on gold and silver sentences together."""

import logging
from typing import Any, Optional

from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.training.callbacks.parser_distillation import ParserDistillationCallback
from green_nlp.training.parser_distiller import ParserDistiller

logger = logging.getLogger(__name__)


@TrainerCallback.register("green_silver_distillation")
class SilverDistillationCallback(ParserDistillationCallback):
    """
    Attaches a `ParserDistiller` that trains silver sentences (`green_gold_silver_dependencies`
    with `silver_targets: "soft"`) on the teacher's stored top-k distributions, with no CE, and gold
    sentences on KL + CE against `teacher_archive` run beside the student (the seed paper's
    equation 3), or on their CE alone when no `teacher_archive` is given.

    # Parameters

    teacher_archive : `str`, optional
    temperature, kl_weight, ce_weight, teacher_annealing, cache_teacher_outputs
        As for `green_parser_distillation`.
    """

    def __init__(
        self,
        serialization_dir: str,
        teacher_archive: Optional[str] = None,
        temperature: float = 1.0,
        kl_weight: float = 1.0,
        ce_weight: float = 1.0,
        teacher_annealing: bool = False,
        cache_teacher_outputs: bool = True,
    ) -> None:
        super().__init__(
            serialization_dir,
            teacher_archive if teacher_archive is not None else "",
            temperature,
            kl_weight,
            ce_weight,
            teacher_annealing,
            cache_teacher_outputs,
        )
        self.teacher_archives = [teacher_archive] if teacher_archive is not None else []

    def on_start(self, trainer: Any, is_primary: bool = True, **kwargs: Any) -> None:
        if self.teacher_archives:
            super().on_start(trainer, is_primary, **kwargs)
            return
        self._student(trainer)
        super(ParserDistillationCallback, self).on_start(trainer, is_primary, **kwargs)  # skip its teacher loading
        self.distiller = ParserDistiller(
            None, self.temperature, self.kl_weight, self.ce_weight, self.cache_teacher_outputs
        )
        self._attach(trainer)
        logger.info("silver distillation without a teacher for gold sentences (CE on gold, KL on silver)")
