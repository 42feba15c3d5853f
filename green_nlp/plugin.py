"""The AllenNLP side of green_nlp: importing this module registers every component.

It applies the compatibility patches, exports the settings the Jsonnet configs read
(`GREEN_NLP_DATA`, `GREEN_NLP_MINILM`) and imports every reader, model, predictor, callback and
subcommand so that AllenNLP finds them by name. `green_nlp.register()` imports it; so does a plain
`import green_nlp` as soon as allennlp is (or gets) imported in the same process.
"""
from green_nlp import compat as _compat
from green_nlp import quiet_logging as _quiet_logging
from green_nlp.data_paths import export_default_data_dir as _export_default_data_dir
from green_nlp.pretrained_paths import export_minilm_dir as _export_minilm_dir

_compat.apply_all()
_export_default_data_dir()
_export_minilm_dir()
_quiet_logging.apply()

from green_nlp import dataset_readers, models, predictors, training  # noqa: E402,F401  (registration)
from green_nlp import compat_distributed  # noqa: E402,F401  (DDP fixes: metrics across workers, test evaluation)
from green_nlp import commands, integrations  # noqa: E402,F401  (`allennlp green-predict`, spaCy factories)
from green_nlp import safety  # noqa: E402,F401  (safe archive extraction, weights_only check)
from green_nlp import predict_per_line as _predict_per_line  # noqa: E402  (per-line robust `allennlp predict`)

_predict_per_line.apply()
