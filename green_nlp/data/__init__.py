"""Fields, the n-gram vocabulary and data helpers shared by the readers and models."""

from green_nlp.data.fields import NgramField, TeacherLogitsField
from green_nlp.data.ngram_vocabulary import NgramVocabulary, make_analyzer, top_ngrams

__all__ = [
    "make_analyzer",
    "NgramField",
    "NgramVocabulary",
    "TeacherLogitsField",
    "top_ngrams",
]
