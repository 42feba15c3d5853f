"""The TrainerCallback that ties a teacher parser archive to the parser student being trained."""

import logging
from typing import Any, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import Archive, load_archive
from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.names import register_with_old_names
from green_nlp.training.callbacks.distillation_schedule import DistillationSchedule
from green_nlp.training.parser_distiller import ParserDistiller, check_vocabularies_match

logger = logging.getLogger(__name__)


@register_with_old_names(TrainerCallback, "green_parser_distillation")
class ParserDistillationCallback(DistillationSchedule):
    """
    For the biaffine parser (`green_biaffine_parser`); registered also under its first name,
    `green_distillation`, which earlier configs and archives name.

    Loads the teacher from `teacher_archive`, freezes it, checks that student and teacher agree on
    vocabulary and label space, and attaches it to the student before the first batch. Every
    worker of a distributed run does the same with its own copy of the teacher.

    # Parameters

    teacher_archive : `str`, optional
        Path to the teacher's `model.tar.gz`.
    cross_fit_teacher_archives : `List[str]`, optional
        Instead of `teacher_archive`: K teachers, archive `i` trained with its dataset reader's
        `cross_fit_folds: K, leave_out_fold: i`. Each gives the targets for the one fold it did
        not train on, so the student learns from soft targets on sentences new to the teacher
        (a teacher that fits its training set gives near-one-hot targets there). Give exactly one
        of the two settings.
    temperature, kl_weight, ce_weight : `float`, optional
        See `ParserDistiller`; the defaults (1, 1, 1) are the paper's equation 3.
    teacher_annealing : `bool`, optional (default = `False`)
        See `DistillationSchedule`. The paper names this as future work.
    cache_teacher_outputs : `bool`, optional (default = `True`)
    """

    distiller_kind = ParserDistiller

    def __init__(
        self,
        serialization_dir: str,
        teacher_archive: Optional[str] = None,
        temperature: float = 1.0,
        kl_weight: float = 1.0,
        ce_weight: float = 1.0,
        teacher_annealing: bool = False,
        cache_teacher_outputs: bool = True,
        cross_fit_teacher_archives: Optional[list[str]] = None,
    ) -> None:
        super().__init__(serialization_dir, temperature, kl_weight, ce_weight, teacher_annealing)
        if (teacher_archive is None) == (cross_fit_teacher_archives is None):
            raise ConfigurationError(
                "give the distillation callback either teacher_archive or cross_fit_teacher_archives (one of the two)"
            )
        if cross_fit_teacher_archives is not None and len(cross_fit_teacher_archives) < 2:
            raise ConfigurationError(
                "cross_fit_teacher_archives needs at least two archives, one per fold; "
                f"got {len(cross_fit_teacher_archives)}"
            )
        self.teacher_archives = (
            [teacher_archive] if teacher_archive is not None else list(cross_fit_teacher_archives or [])
        )
        self.cross_fit = cross_fit_teacher_archives is not None
        self.cache_teacher_outputs = cache_teacher_outputs
        self.distiller: Optional[ParserDistiller] = None

    def on_start(self, trainer: Any, is_primary: bool = True, **kwargs: Any) -> None:
        super().on_start(trainer, is_primary, **kwargs)
        student = self._student(trainer)  # refused before any teacher is loaded
        device = next(student.parameters()).device
        teachers = []
        for fold, path in enumerate(self.teacher_archives):
            archive = self._load(path)
            if self.cross_fit:
                check_fold_teacher(archive, path, fold, len(self.teacher_archives))
            teacher = archive.model
            if type(teacher) is not type(student):
                raise ConfigurationError(
                    f"teacher is a {type(teacher).__name__}, student a "
                    f"{type(student).__name__}; distillation needs the same model family"
                )
            check_vocabularies_match(teacher.vocab, student.vocab, path)
            teachers.append(teacher.to(device))
        self.distiller = ParserDistiller(
            teachers if self.cross_fit else teachers[0],
            self.temperature,
            self.kl_weight,
            self.ce_weight,
            self.cache_teacher_outputs,
        )
        self._attach(trainer)
        logger.info("distilling from %s (temperature %s)", ", ".join(self.teacher_archives), self.temperature)

    @staticmethod
    def _load(path: str) -> Archive:
        try:
            return load_archive(path)
        except FileNotFoundError as error:
            raise ConfigurationError(f"teacher archive not found: {path}") from error


def check_fold_teacher(archive: Archive, path: str, fold: int, fold_count: int) -> None:
    """Cross-fitting is only honest if teacher `fold` really left that fold out of its training."""
    reader = archive.config.get("dataset_reader")
    trained = (reader.get("cross_fit_folds", None), reader.get("leave_out_fold", None))
    if trained != (fold_count, fold):
        raise ConfigurationError(
            f"cross-fitting teacher {fold} ({path}) was trained with cross_fit_folds={trained[0]}, "
            f"leave_out_fold={trained[1]}; position {fold} of {fold_count} archives needs "
            f"cross_fit_folds={fold_count}, leave_out_fold={fold}. List the archives in fold order."
        )


DistillationCallback = ParserDistillationCallback
