"""The AllenNLP models, one per family (registered on import)."""

from green_nlp.models.biaffine_parser import BiaffineDependencyParser
from green_nlp.models.dense_lm import DenseLanguageModel
from green_nlp.models.ldnet_tagger import LdNetTagger
from green_nlp.models.ngram_dan import NgramDan

__all__ = [
    "BiaffineDependencyParser",
    "DenseLanguageModel",
    "LdNetTagger",
    "NgramDan",
]
