"""AllenNLP predictors for raw text or JSON lines (registered on import)."""

from green_nlp.predictors.dependency_parser import DependencyParserPredictor
from green_nlp.predictors.sentence_tagger import SentenceTaggerPredictor
from green_nlp.predictors.text_classifier import TextClassifierPredictor

__all__ = [
    "DependencyParserPredictor",
    "SentenceTaggerPredictor",
    "TextClassifierPredictor",
]
