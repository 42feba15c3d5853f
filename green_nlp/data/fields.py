"""Two compact fields for the n-gram DAN: the text's n-gram ids, and a teacher's logits.

Both resolve names to indices only in `index(vocab)`, so the reader needs no vocabulary and the
teacher's label order never has to match the student's.
"""

from collections.abc import Callable, Sequence
from typing import Optional

import numpy
import torch
from allennlp.data import Vocabulary
from allennlp.data.fields import Field

Analyzer = Callable[[str], list[str]]
# Where the teacher has no score for a student label: probability ~0 without a NaN in the KL.
MISSING_LOGIT = -1e4


class NgramField(Field[torch.Tensor]):
    """
    The ids of a text's in-vocabulary n-grams (occurrences, in the analyzer's order), as one
    padded row of a `(batch, max_ngrams)` LongTensor; 0 is padding. n-grams outside the
    vocabulary are dropped, as CountVectorizer's `transform` does.

    Holds the text, not the n-gram strings, until indexed: a long review has ~1,000 n-grams, and
    an int32 array is far smaller than that many Python strings.
    """

    __slots__ = ["text", "analyzer", "namespace", "ids"]

    def __init__(self, text: str, analyzer: Analyzer, namespace: str = "ngrams") -> None:
        self.text = text
        self.analyzer = analyzer
        self.namespace = namespace
        self.ids: Optional[numpy.ndarray] = None

    def ngrams(self) -> list[str]:
        return self.analyzer(self.text)

    def index(self, vocab: Vocabulary) -> None:
        lookup = vocab.get_token_to_index_vocabulary(self.namespace)
        ids = [lookup.get(ngram) for ngram in self.ngrams()]
        self.ids = numpy.array([i for i in ids if i is not None], dtype=numpy.int32)

    def __len__(self) -> int:
        return len(self.ids) if self.ids is not None else len(self.text.split())

    def get_padding_lengths(self) -> dict[str, int]:
        if self.ids is None:
            raise RuntimeError("NgramField must be indexed before padding")
        return {"num_ngrams": len(self.ids)}

    def as_tensor(self, padding_lengths: dict[str, int]) -> torch.Tensor:
        if self.ids is None:
            raise RuntimeError("NgramField must be indexed before it becomes a tensor")
        tensor = torch.zeros(max(1, padding_lengths["num_ngrams"]), dtype=torch.long)
        tensor[: len(self.ids)] = torch.from_numpy(self.ids.astype(numpy.int64))
        return tensor

    def empty_field(self) -> "NgramField":
        field = NgramField("", self.analyzer, self.namespace)
        field.ids = numpy.zeros(0, dtype=numpy.int32)
        return field

    def human_readable_repr(self) -> str:
        return self.text


class TeacherLogitsField(Field[torch.Tensor]):
    """
    A teacher's logits over its own label names, reordered into the student's label namespace at
    indexing time. Counting it adds the teacher's labels to that namespace, so a student trained
    on unlabeled text alone still has every class.
    """

    __slots__ = ["logits", "labels", "label_namespace", "_vector"]

    def __init__(self, logits: Sequence[float], labels: Sequence[str], label_namespace: str = "labels") -> None:
        if len(logits) != len(labels):
            raise ValueError(f"{len(logits)} teacher logits for {len(labels)} labels")
        self.logits = [float(x) for x in logits]
        self.labels = list(labels)
        self.label_namespace = label_namespace
        self._vector: Optional[torch.Tensor] = None

    def count_vocab_items(self, counter: dict[str, dict[str, int]]) -> None:
        for label in self.labels:
            counter[self.label_namespace][label] += 1

    def index(self, vocab: Vocabulary) -> None:
        size = vocab.get_vocab_size(self.label_namespace)
        vector = torch.full((size,), MISSING_LOGIT)
        for label, logit in zip(self.labels, self.logits):
            vector[vocab.get_token_index(label, self.label_namespace)] = logit
        self._vector = vector

    def get_padding_lengths(self) -> dict[str, int]:
        return {}

    def as_tensor(self, padding_lengths: dict[str, int]) -> torch.Tensor:
        if self._vector is None:
            raise RuntimeError("TeacherLogitsField must be indexed before use")
        return self._vector

    def empty_field(self) -> "TeacherLogitsField":
        return TeacherLogitsField([], [], self.label_namespace)

    def __len__(self) -> int:
        return len(self.labels)
