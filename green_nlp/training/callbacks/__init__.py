from green_nlp.training.callbacks.distillation_schedule import DistillationSchedule
from green_nlp.training.callbacks.logit_distillation import LogitDistillationCallback
from green_nlp.training.callbacks.parser_distillation import DistillationCallback, ParserDistillationCallback
from green_nlp.training.callbacks.silver_distillation import SilverDistillationCallback

__all__ = [
    "DistillationCallback",
    "DistillationSchedule",
    "LogitDistillationCallback",
    "ParserDistillationCallback",
    "SilverDistillationCallback",
]
