"""The AllenNLP side of green_nlp: importing this module registers every component.

It applies green_nlp's patches to allennlp (`green_nlp.patches.apply_all`), exports the settings
the Jsonnet configs read (`green_nlp.settings`) and imports every reader, model, predictor,
callback and subcommand so that AllenNLP finds them by name. `green_nlp.register()` imports it; so
does a plain `import green_nlp` as soon as allennlp is (or gets) imported in the same process.
"""

from green_nlp import patches as _patches
from green_nlp import settings as _settings

_patches.apply_all()
_settings.export_defaults()

# Imported for their registration side effect: `@Model.register(...)` and friends run on import
# (readers, models, predictors, callbacks, optimizers, `allennlp green-*` subcommands, spaCy factories).
from green_nlp import commands, dataset_readers, integrations, models, predictors, training  # noqa: E402,F401
