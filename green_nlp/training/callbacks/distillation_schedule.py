"""What every green_nlp distillation callback shares: temperature, KL/CE weights, optional teacher
annealing, and the schedule's resumable state. Subclasses decide where the teacher's outputs come
from (a teacher archive run alongside the student, or logits precomputed into the data)."""

from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.training.distiller import Distiller

# a distiller's class name -> the callback that gives it (named, not imported: no import circle)
CALLBACKS = {"LogitDistiller": "green_logit_distillation", "ParserDistiller": "green_parser_distillation"}


class DistillationSchedule(TrainerCallback):
    """
    Keeps `self.distiller` (a `Distiller`) on schedule; subclasses build it in `on_start` and call
    `_attach(trainer)`, which gives it to the student (a `Distillable` model) and starts the
    schedule. It is detached at the end, so the archive holds the student alone.

    # Parameters

    temperature : `float`, optional (default = `1.0`)
    kl_weight, ce_weight : `float`, optional (default = `1.0` each)
    teacher_annealing : `bool`, optional (default = `False`)
        Clark et al. (2019): move linearly from pure distillation (KL only) at the first batch to
        pure gold supervision (CE only) at the last.
    """

    distiller_kind: Optional[type] = None  # the Distiller subclass it gives (set by each callback)

    def __init__(
        self,
        serialization_dir: str,
        temperature: float = 1.0,
        kl_weight: float = 1.0,
        ce_weight: float = 1.0,
        teacher_annealing: bool = False,
    ) -> None:
        super().__init__(serialization_dir)
        if temperature <= 0:
            raise ConfigurationError(f"temperature must be positive, got {temperature}")
        if kl_weight < 0 or ce_weight < 0:
            raise ConfigurationError(f"kl_weight and ce_weight must be >= 0, got {kl_weight} and {ce_weight}")
        self.temperature, self.kl_weight, self.ce_weight = temperature, kl_weight, ce_weight
        self.teacher_annealing = teacher_annealing
        self.batches_seen = 0
        self.total_batches: Optional[int] = None
        self.distiller: Optional[Distiller] = None

    def _student(self, trainer: Any) -> Any:
        """The model being trained; refused when it cannot hold a distiller, or when it is of another
        family than this callback's (each callback asks before any teacher loads: a parser under
        `green_logit_distillation` ended in an AttributeError deep in the first batch)."""
        student = trainer.model
        if not hasattr(student, "attach_distiller"):
            raise ConfigurationError(f"{type(student).__name__} cannot be distilled: it has no attach_distiller()")
        kind = getattr(student, "distiller_kind", None)
        if kind is not None and self.distiller_kind is not None and not issubclass(kind, self.distiller_kind):
            right = CALLBACKS.get(kind.__name__, "its own distillation callback")
            raise ConfigurationError(
                f"{type(student).__name__} is distilled with a {kind.__name__}, not this callback's "
                f"{self.distiller_kind.__name__}: use {right} in trainer.callbacks"
            )
        return student

    def _attach(self, trainer: Any) -> None:
        """Give `self.distiller` to the student and set the schedule going."""
        self._student(trainer).attach_distiller(self.distiller)
        self._start_schedule(trainer)

    def _start_schedule(self, trainer: Any) -> None:
        """Call once the distiller is attached: learns the run's length and sets the weights."""
        try:
            self.total_batches = trainer._num_epochs * len(trainer.data_loader)
        except TypeError:  # a data loader without a length: annealing cannot know the end
            self.total_batches = None
        if self.teacher_annealing and self.total_batches is None:
            raise ConfigurationError("teacher_annealing needs a data loader with a known length")
        self._update_weights()

    def _update_weights(self) -> None:
        if self.distiller is None or not self.teacher_annealing:
            return
        progress = min(1.0, self.batches_seen / max(1, self.total_batches or 1))
        self.distiller.kl_weight = self.kl_weight * (1.0 - progress)
        self.distiller.ce_weight = self.ce_weight * progress

    def on_batch(
        self,
        trainer: Any,
        batch_inputs: Any,
        batch_outputs: Any,
        batch_metrics: dict[str, Any],
        epoch: int,
        batch_number: int,
        is_training: bool,
        is_primary: bool = True,
        batch_grad_norm: Optional[float] = None,
        **kwargs: Any,
    ) -> None:
        if is_training:
            self.batches_seen += 1
            self._update_weights()

    def on_end(
        self,
        trainer: Any,
        metrics: Optional[dict[str, Any]] = None,
        epoch: Optional[int] = None,
        is_primary: bool = True,
        **kwargs: Any,
    ) -> None:
        trainer.model.attach_distiller(None)  # the final archive and evaluation see the student alone

    def state_dict(self) -> dict[str, Any]:
        return {"batches_seen": int(self.batches_seen)}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.batches_seen = int(state_dict.get("batches_seen", 0))
        self._update_weights()
