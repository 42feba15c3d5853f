"""AllenNLP dataset readers (registered on import) and the file parsers they are built on."""

from green_nlp.dataset_readers.conll_tagging import ConllTaggingFormatError, ConllTaggingReader
from green_nlp.dataset_readers.conllu_dependencies import ConlluDependenciesReader
from green_nlp.dataset_readers.conllu_sentences import ConlluFormatError, DependencySentence, read_conllu
from green_nlp.dataset_readers.gold_silver_dependencies import GoldSilverDependenciesReader
from green_nlp.dataset_readers.lm_text import LmTextReader, LmTokenIndexer
from green_nlp.dataset_readers.ngram_text import NgramTextReader
from green_nlp.dataset_readers.text_classification import TextClassificationReader, TextFormatError, read_examples

__all__ = [
    "ConllTaggingFormatError",
    "ConllTaggingReader",
    "ConlluDependenciesReader",
    "ConlluFormatError",
    "DependencySentence",
    "GoldSilverDependenciesReader",
    "LmTextReader",
    "LmTokenIndexer",
    "NgramTextReader",
    "read_conllu",
    "read_examples",
    "TextClassificationReader",
    "TextFormatError",
]
