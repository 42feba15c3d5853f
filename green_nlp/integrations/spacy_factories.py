"""The spaCy factories `green_nlp_parser`, `green_nlp_ner` and `green_nlp_classifier`, declared cheaply.

spaCy imports every `spacy_factories` entry point whenever a pipeline is created
(`Language.__init__`, so `spacy.blank("en")` too), whether or not the pipeline uses green_nlp.
This module is what those entry points name: it imports nothing but spaCy, and the components
(`spacy_components`, which needs torch and allennlp) are imported only when one is added to a
pipeline. The names, default configs and signatures are the components' public config.
"""

from types import ModuleType
from typing import TYPE_CHECKING, Optional, Union

from spacy.language import Language

if TYPE_CHECKING:  # for the return annotations only
    from green_nlp.integrations.spacy_components import ClassifierComponent, NerComponent, ParserComponent
    from green_nlp.integrations.spacy_runtime import RuntimeClassifierComponent, RuntimeParserComponent


def _components() -> ModuleType:
    """The heavy module, with every AllenNLP component of green_nlp registered (archives need them)."""
    import green_nlp

    green_nlp.register()
    from green_nlp.integrations import spacy_components

    return spacy_components


def _runtime() -> ModuleType:
    """The runtime-folder components: onnxruntime and numpy, no torch or allennlp."""
    from green_nlp.integrations import spacy_runtime

    return spacy_runtime


def _uses_runtime(name: str, archive: Optional[str], model: Optional[str]) -> bool:
    """True for `model` (a runtime folder or shipped name), False for `archive`; exactly one is given."""
    if (archive is None) == (model is None):
        raise ValueError(
            f"{name}: give either model (a shipped model name or an exported folder; runs without torch) "
            "or archive (a model.tar.gz, needs the training stack)" + (", not both" if archive is not None else "")
        )
    return model is not None


@Language.factory(
    "green_nlp_parser",
    default_config={
        "archive": None,
        "model": None,
        "cuda_device": -1,
        "batch_size": 32,
        "overrides": "",
        "max_sentence_length": 1000,
        "precision": "auto",
    },
)
def make_parser(
    nlp: Language,
    name: str,
    archive: Optional[str],
    model: Optional[str],
    cuda_device: int,
    batch_size: int,
    overrides: str,
    max_sentence_length: int,
    precision: str,
) -> Union["ParserComponent", "RuntimeParserComponent"]:
    if max_sentence_length < 1:  # refused before any model loads, in both modes
        raise ValueError(f"{name}: max_sentence_length must be positive, got {max_sentence_length}")
    if _uses_runtime(name, archive, model):
        return _runtime().RuntimeParserComponent(name, model, batch_size, max_sentence_length, precision)
    return _components().ParserComponent(name, archive, cuda_device, batch_size, overrides, max_sentence_length)


@Language.factory(
    "green_nlp_ner",
    default_config={
        "cuda_device": -1,
        "batch_size": 32,
        "overrides": "",
        "predictor": None,
        "max_sentence_length": 1000,
    },
)
def make_ner(
    nlp: Language,
    name: str,
    archive: str,
    cuda_device: int,
    batch_size: int,
    overrides: str,
    predictor: Optional[str],
    max_sentence_length: int,
) -> "NerComponent":
    return _components().NerComponent(name, archive, cuda_device, batch_size, overrides, predictor, max_sentence_length)


@Language.factory(
    "green_nlp_classifier",
    default_config={
        "archive": None,
        "model": None,
        "cuda_device": -1,
        "batch_size": 32,
        "overrides": "",
        "predictor": None,
        "label_namespace": "labels",
        "no_known_features": "flag",
        "precision": "auto",
        "split_sentences": False,
    },
)
def make_classifier(
    nlp: Language,
    name: str,
    archive: Optional[str],
    model: Optional[str],
    cuda_device: int,
    batch_size: int,
    overrides: str,
    predictor: Optional[str],
    label_namespace: str,
    no_known_features: str,
    precision: str,
    split_sentences: bool,
) -> Union["ClassifierComponent", "RuntimeClassifierComponent"]:
    if _uses_runtime(name, archive, model):
        return _runtime().RuntimeClassifierComponent(
            name, model, batch_size, no_known_features, precision, split_sentences
        )
    return _components().ClassifierComponent(
        name, archive, cuda_device, batch_size, overrides, predictor, label_namespace, split_sentences
    )
