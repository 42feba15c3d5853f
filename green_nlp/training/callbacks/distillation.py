"""The TrainerCallback that ties a teacher archive to the student being trained."""
import logging
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.training.callbacks.distillation_schedule import DistillationSchedule
from green_nlp.training.parser_distiller import ParserDistiller, check_vocabularies_match

logger = logging.getLogger(__name__)


@TrainerCallback.register("green_distillation")
class DistillationCallback(DistillationSchedule):
    """
    Loads the teacher from `teacher_archive`, freezes it, checks that student and teacher agree on
    vocabulary and label space, and attaches it to the student before the first batch. Every
    worker of a distributed run does the same with its own copy of the teacher.

    # Parameters

    teacher_archive : `str`
        Path to the teacher's `model.tar.gz`.
    temperature, kl_weight, ce_weight : `float`, optional
        See `ParserDistiller`; the defaults (1, 1, 1) are the paper's equation 3.
    teacher_annealing : `bool`, optional (default = `False`)
        See `DistillationSchedule`. The paper names this as future work.
    cache_teacher_outputs : `bool`, optional (default = `True`)
    """

    def __init__(self, serialization_dir: str, teacher_archive: str, temperature: float = 1.0,
                 kl_weight: float = 1.0, ce_weight: float = 1.0, teacher_annealing: bool = False,
                 cache_teacher_outputs: bool = True) -> None:
        super().__init__(serialization_dir, temperature, kl_weight, ce_weight, teacher_annealing)
        self.teacher_archive = teacher_archive
        self.cache_teacher_outputs = cache_teacher_outputs
        self.distiller: Optional[ParserDistiller] = None

    def on_start(self, trainer: Any, is_primary: bool = True, **kwargs: Any) -> None:
        super().on_start(trainer, is_primary, **kwargs)
        student = trainer.model
        if not hasattr(student, "attach_distiller"):
            raise ConfigurationError(f"{type(student).__name__} cannot be distilled: it has no attach_distiller()")
        try:
            teacher = load_archive(self.teacher_archive).model
        except FileNotFoundError as error:
            raise ConfigurationError(f"teacher archive not found: {self.teacher_archive}") from error
        if type(teacher) is not type(student):
            raise ConfigurationError(f"teacher is a {type(teacher).__name__}, student a {type(student).__name__}; "
                                     "distillation needs the same model family")
        check_vocabularies_match(teacher.vocab, student.vocab, self.teacher_archive)
        device = next(student.parameters()).device
        self.distiller = ParserDistiller(teacher.to(device), self.temperature, self.kl_weight, self.ce_weight,
                                         self.cache_teacher_outputs)
        student.attach_distiller(self.distiller)
        self._start_schedule(trainer)
        logger.info("distilling from %s (temperature %s)", self.teacher_archive, self.temperature)
