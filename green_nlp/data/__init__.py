from green_nlp.data.fields import NgramField, TeacherLogitsField
from green_nlp.data.ngram_vocabulary import NgramVocabulary, make_analyzer, top_ngrams
