"""Keep `allennlp predict --silent` (and green_nlp's own loggers) quiet.

AllenNLP's entry point configures the root logger at INFO, so a prediction run writes a couple of
hundred INFO lines (archive extraction, vocabulary, parameters) to stderr even with `--silent`,
which only silences the predictions on stdout. A user asking for silence wants warnings and
errors only; `ALLENNLP_LOG_LEVEL` stays the way to choose a level explicitly.
"""

import logging
import os
import sys

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)


def _silent_command_line() -> bool:
    asked_for_a_level = "ALLENNLP_LOG_LEVEL" in os.environ or bool(os.environ.get("ALLENNLP_DEBUG"))
    return "--silent" in sys.argv[1:] and not asked_for_a_level


def _not_the_upos_namespace_advice(record: logging.LogRecord) -> bool:
    """AllenNLP advises, once per run, a namespace ending in 'labels' or 'tags' for green's 'upos'
    field; the parser wants UNK/PAD there and archives depend on the name, so the advice is noise."""
    return "namespace was 'upos'" not in record.getMessage()


def apply() -> bool:
    """Raise the root logger to WARNING under `--silent`, and drop one known piece of advice; True if
    this call added the filter."""
    advice_logger = logging.getLogger("allennlp.data.fields.sequence_label_field")
    if _silent_command_line():
        logging.getLogger().setLevel(logging.WARNING)
        for handler in logging.getLogger().handlers:
            handler.setLevel(logging.WARNING)
    if _not_the_upos_namespace_advice in advice_logger.filters:
        return False
    advice_logger.addFilter(_not_the_upos_namespace_advice)
    return True
