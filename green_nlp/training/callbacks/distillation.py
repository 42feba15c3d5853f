"""The old import path of the parser's distillation callback, now in `parser_distillation` (named
for the model family it distils), kept for code that imports from here."""

from green_nlp.training.callbacks.parser_distillation import (  # noqa: F401
    DistillationCallback,
    ParserDistillationCallback,
    check_fold_teacher,
)
