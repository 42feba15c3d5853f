"""Keep `allennlp predict --silent` (and green_nlp's own loggers) quiet.

AllenNLP's entry point configures the root logger at INFO, so a prediction run writes a couple of
hundred INFO lines (archive extraction, vocabulary, parameters) to stderr even with `--silent`,
which only silences the predictions on stdout. A user asking for silence wants warnings and
errors only; `ALLENNLP_LOG_LEVEL` stays the way to choose a level explicitly.
"""
import logging
import os
import sys


def _silent_command_line() -> bool:
    return "--silent" in sys.argv[1:] and "ALLENNLP_LOG_LEVEL" not in os.environ and not os.environ.get("ALLENNLP_DEBUG")


def apply() -> None:
    """Raise the root logger to WARNING under `--silent`; green_nlp's loggers say INFO only when asked."""
    if _silent_command_line():
        logging.getLogger().setLevel(logging.WARNING)
        for handler in logging.getLogger().handlers:
            handler.setLevel(logging.WARNING)
