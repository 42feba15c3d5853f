"""AllenNLP subcommands added by green_nlp (found through `.allennlp_plugins` / `--include-package`).

Each `allennlp green-X` lives in `green_X.py` as the class `GreenX`.
"""

# Imported for their registration side effect (`@Subcommand.register`).
from green_nlp.commands import (
    green_average_checkpoints,  # noqa: F401  (`allennlp green-average-checkpoints`)
    green_export,  # noqa: F401  (`allennlp green-export`)
    green_factorize_ngrams,  # noqa: F401  (`allennlp green-factorize-ngrams`)
    green_label_teacher,  # noqa: F401  (`allennlp green-label-teacher`)
    green_learn_tokenizer,  # noqa: F401  (`allennlp green-learn-tokenizer`)
    green_predict,  # noqa: F401  (`allennlp green-predict`)
    green_prune_ldnet,  # noqa: F401  (`allennlp green-prune-ldnet`)
    green_prune_ngrams,  # noqa: F401  (`allennlp green-prune-ngrams`)
)
