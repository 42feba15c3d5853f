"""green_nlp: an AllenNLP plugin for cheaper NLP models.

Importing the package applies the small compatibility fixes in `green_nlp.compat` and registers
every reader, model, predictor and callback by name, which is what `--include-package green_nlp`
and `.allennlp_plugins` rely on.
"""
from green_nlp import compat as _compat
from green_nlp.data_paths import export_default_data_dir as _export_default_data_dir
from green_nlp.pretrained_paths import export_minilm_dir as _export_minilm_dir

_compat.apply_all()
_export_default_data_dir()
_export_minilm_dir()

from green_nlp import dataset_readers, models, predictors, training  # noqa: E402,F401  (registration)
from green_nlp import compat_distributed  # noqa: E402,F401  (DDP fixes: metrics across workers, test evaluation)
from green_nlp import commands, integrations  # noqa: E402,F401  (`allennlp green-predict`, spaCy factories)
from green_nlp import safety  # noqa: E402,F401  (safe archive extraction, weights_only check)
