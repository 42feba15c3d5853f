"""AllenNLP subcommands added by green_nlp (found through `.allennlp_plugins` / `--include-package`)."""
from green_nlp.commands import bulk_predict  # noqa: F401  (registers `allennlp green-predict`)
from green_nlp.commands import prune_ldnet  # noqa: F401  (registers `allennlp green-prune-ldnet`)
from green_nlp.commands import label_with_teacher  # noqa: F401  (registers `allennlp green-label-teacher`)
from green_nlp.commands import prune_ngrams  # noqa: F401  (registers `allennlp green-prune-ngrams`)
from green_nlp.commands import average_checkpoints  # noqa: F401  (registers `allennlp green-average-checkpoints`)
from green_nlp.commands import export  # noqa: F401  (registers `allennlp green-export`)
