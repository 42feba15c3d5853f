"""The DAN's n-gram vocabulary: the top |V| n-grams by frequency, found with scikit-learn's
CountVectorizer (as the seed paper did), stored as an ordinary AllenNLP namespace.

Storing it as a namespace means it is saved in the archive's `vocabulary/` folder and reloads with
the model, with no extra file to carry. Entries are in decreasing frequency order (ties broken
alphabetically), so index 2 is the most frequent n-gram and pruning to k n-grams keeps the ids
below k + 2 (0 is padding, 1 the unused OOV entry).
"""

import glob
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Optional

import numpy
from allennlp.common.checks import ConfigurationError
from allennlp.data import Instance, Vocabulary
from sklearn.feature_extraction.text import CountVectorizer

from green_nlp.data.fields import NgramField
from green_nlp.names import register_with_old_names

logger = logging.getLogger(__name__)

NGRAM_NAMESPACE = "ngrams"


def make_analyzer(ngram_range: tuple[int, int] = (1, 4), lowercase: bool = True) -> Callable[[str], list[str]]:
    """CountVectorizer's own analyzer: its default token pattern (words of 2+ characters), lower-cased."""
    low, high = ngram_range
    if not 1 <= low <= high:
        raise ConfigurationError(f"ngram_range must be (low, high) with 1 <= low <= high, got {ngram_range}")
    return CountVectorizer(ngram_range=(low, high), lowercase=lowercase).build_analyzer()


def top_ngrams(texts: Iterable[str], analyzer: Callable[[str], list[str]], max_features: int) -> list[tuple[str, int]]:
    """The `max_features` most frequent n-grams of `texts` with their counts, most frequent first."""
    if max_features < 1:
        raise ConfigurationError(f"max_features must be positive, got {max_features}")
    vectorizer = CountVectorizer(analyzer=analyzer, max_features=max_features)
    counts = vectorizer.fit_transform(texts)
    totals = numpy.asarray(counts.sum(axis=0)).ravel()
    names = vectorizer.get_feature_names_out()
    order = sorted(range(len(names)), key=lambda i: (-totals[i], names[i]))
    return [(str(names[i]), int(totals[i])) for i in order]


def _expand(paths: list[str]) -> list[str]:
    """Paths with globs (e.g. the shards of a teacher cache) expanded, in sorted order."""
    expanded: list[str] = []
    for path in paths:
        matches = sorted(glob.glob(path)) if any(c in path for c in "*?[") else [path]
        if not matches:
            raise ConfigurationError(f"vocabulary text_paths: no file matches {path}")
        expanded += matches
    return expanded


def _ngram_field(instance: Instance) -> Optional[NgramField]:
    for field in instance.fields.values():
        if isinstance(field, NgramField):
            return field
    return None


@register_with_old_names(Vocabulary, "green_ngram_count_vectorizer", constructor="from_ngram_corpus")
class NgramVocabulary(Vocabulary):
    """A `Vocabulary` whose n-gram namespace is built by CountVectorizer (`from_ngram_corpus`).

    Saved and reloaded as any vocabulary (`from_files`); nothing else differs.
    """

    @classmethod
    def from_ngram_corpus(
        cls,
        instances: Optional[Iterable[Instance]] = None,
        max_features: int = 1_000_000,
        text_paths: Optional[list[str]] = None,
        text_format: str = "auto",
        max_examples_per_path: Optional[int] = None,
        namespace: str = NGRAM_NAMESPACE,
        min_count: Optional[dict[str, int]] = None,
    ) -> "NgramVocabulary":
        """
        Labels (and any other namespace) are counted from `instances` as `from_instances` does;
        the n-gram namespace holds the top `max_features` n-grams of the instances' texts, or of
        the files in `text_paths` when given (so a from-scratch DAN can share the vocabulary of
        its distilled sibling, built over train + unlabeled text). The n-gram range and
        lower-casing are those of the reader's analyzer.

        # Parameters

        max_features : `int`, optional (default = `1_000_000`, the paper's |V|)
        text_paths : `List[str]`, optional
            Files (globs allowed) read with `green_nlp.dataset_readers.text_classification.read_examples` (teacher
            caches included: their texts are read).
        max_examples_per_path : `int`, optional
            Only the first examples of each of `text_paths`.
        """
        from green_nlp.dataset_readers.text_classification import read_examples

        counter: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        texts: list[str] = []
        analyzer = None
        read = 0
        for instance in instances or ():
            read += 1
            instance.count_vocab_items(counter)
            field = _ngram_field(instance)
            if field is not None:
                analyzer = analyzer or field.analyzer
                texts.append(field.text)
        if not read:  # the reader is the right one but kept no example: the message below would blame it
            raise ConfigurationError(
                "the green_ngram_count_vectorizer vocabulary got zero examples: the reader kept none of the "
                "training data (skip_unlabeled drops examples without a label, and max_examples or sampling "
                "may keep none); give train_data_path a file with labelled examples"
            )
        if analyzer is None:
            raise ConfigurationError(
                "the green_ngram_count_vectorizer vocabulary needs instances from the green_ngram_text reader"
            )
        if text_paths:
            texts = []
            for path in _expand(text_paths):
                for number, example in enumerate(read_examples(path, text_format)):
                    if max_examples_per_path is not None and number >= max_examples_per_path:
                        break
                    texts.append(example.text)
        ngrams = top_ngrams(texts, analyzer, max_features)
        logger.info(
            "n-gram vocabulary: %d entries from %d texts (most frequent: %s)",
            len(ngrams),
            len(texts),
            [name for name, _ in ngrams[:5]],
        )
        vocab = cls(counter=counter, min_count=min_count)  # type: ignore[arg-type]  # allennlp's default is None
        vocab.add_tokens_to_namespace([name for name, _ in ngrams], namespace)
        return vocab
