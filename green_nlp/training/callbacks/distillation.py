"""The TrainerCallback that ties a teacher archive to the student being trained."""
import logging
from typing import Any, Dict, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.training.parser_distiller import ParserDistiller, check_vocabularies_match

logger = logging.getLogger(__name__)


@TrainerCallback.register("green_distillation")
class DistillationCallback(TrainerCallback):
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
        Clark et al. (2019): move linearly from pure distillation (KL only) at the first batch to
        pure gold supervision (CE only) at the last. The paper names this as future work.
    cache_teacher_outputs : `bool`, optional (default = `True`)
    """

    def __init__(self, serialization_dir: str, teacher_archive: str, temperature: float = 1.0,
                 kl_weight: float = 1.0, ce_weight: float = 1.0, teacher_annealing: bool = False,
                 cache_teacher_outputs: bool = True) -> None:
        super().__init__(serialization_dir)
        if temperature <= 0:
            raise ConfigurationError(f"temperature must be positive, got {temperature}")
        if kl_weight < 0 or ce_weight < 0:
            raise ConfigurationError(f"kl_weight and ce_weight must be >= 0, got {kl_weight} and {ce_weight}")
        self.teacher_archive = teacher_archive
        self.temperature, self.kl_weight, self.ce_weight = temperature, kl_weight, ce_weight
        self.teacher_annealing = teacher_annealing
        self.cache_teacher_outputs = cache_teacher_outputs
        self.batches_seen = 0
        self.total_batches: Optional[int] = None
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
        try:
            self.total_batches = trainer._num_epochs * len(trainer.data_loader)
        except TypeError:  # a data loader without a length: annealing cannot know the end
            self.total_batches = None
        if self.teacher_annealing and self.total_batches is None:
            raise ConfigurationError("teacher_annealing needs a data loader with a known length")
        self._update_weights()
        logger.info("distilling from %s (temperature %s)", self.teacher_archive, self.temperature)

    def _update_weights(self) -> None:
        if self.distiller is None or not self.teacher_annealing:
            return
        progress = min(1.0, self.batches_seen / max(1, self.total_batches or 1))
        self.distiller.kl_weight = self.kl_weight * (1.0 - progress)
        self.distiller.ce_weight = self.ce_weight * progress

    def on_batch(self, trainer: Any, batch_inputs: Any, batch_outputs: Any, batch_metrics: Dict[str, Any],
                 epoch: int, batch_number: int, is_training: bool, is_primary: bool = True,
                 batch_grad_norm: Optional[float] = None, **kwargs: Any) -> None:
        if is_training:
            self.batches_seen += 1
            self._update_weights()

    def on_end(self, trainer: Any, metrics: Optional[Dict[str, Any]] = None, epoch: Optional[int] = None,
               is_primary: bool = True, **kwargs: Any) -> None:
        trainer.model.attach_distiller(None)  # the final archive and evaluation see the student alone

    def state_dict(self) -> Dict[str, Any]:
        return {"batches_seen": int(self.batches_seen)}

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        self.batches_seen = int(state_dict.get("batches_seen", 0))
        self._update_weights()
