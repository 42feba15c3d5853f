"""AllenNLP reader for the n-gram DAN: text -> 1-4-gram ids (+ label, + the teacher's logits)."""

import glob
import logging
from collections.abc import Iterator
from typing import Any, Optional

from allennlp.data import DatasetReader, Instance

from green_nlp.data.fields import NgramField, TeacherLogitsField
from green_nlp.data.gold_label_field import GoldLabel
from green_nlp.data.ngram_vocabulary import NGRAM_NAMESPACE, make_analyzer
from green_nlp.data.teacher_cache import TeacherCacheError, read_cache, read_header
from green_nlp.dataset_readers.text_classification import (
    TextFormatError,
    check_label_names,
    check_sampling,
    check_split,
    readable_label,
    reader_examples,
    subsample,
)
from green_nlp.names import register_with_old_names

logger = logging.getLogger(__name__)


@register_with_old_names(DatasetReader, "green_ngram_text")  # first name: ngram_text
class NgramTextReader(DatasetReader):
    """
    Reads classification files (see `text_classification`) or teacher-label caches (written by
    `allennlp green-label-teacher`, recognised by their header line). Each instance has an
    `ngrams` field (ids come from the vocabulary at indexing time), a `label` when the example has
    one, and `teacher_logits` when read from a cache.

    # Parameters

    ngram_range : `Tuple[int, int]`, optional (default = `(1, 4)`, the paper)
    lowercase : `bool`, optional (default = `True`, CountVectorizer's default)
    format, fine_labels : see `TextClassificationReader`.
    max_examples, sample_every, sample_offset : `int`, optional
        Keep every `sample_every`-th example from index `sample_offset` on, at most `max_examples`
        per file (CPU-sized runs; see `subsample`).
    use_gold_labels : `bool`, optional (default = `False`)
        For caches: also emit the gold label, so the loss adds CE to the KL. Every record must
        then have one (a batch cannot mix instances with and without labels). The paper's
        distillation stage uses the teacher's distribution alone.
    skip_unlabeled : `bool`, optional (default = `False`)
        For plain files: drop examples without a label.
    split, dev_every, split_file : see `TextClassificationReader`; for plain files (a held-out dev
        set carved from TREC's training file), before sampling.
    label_names : `Dict[str, str]`, optional
        Readable names for the labels as files write them (see `TextClassificationReader`). A
        cache's labels are the teacher's: raw ones are named with this mapping (so caches written
        before the names still serve), and a cache whose teacher named them differently, or whose
        labels the mapping does not know, is refused rather than distilled into the wrong classes.

    `file_path` may be a glob (e.g. the shards of a cache); matches are read in sorted order.
    """

    def __init__(
        self,
        ngram_range: tuple[int, int] = (1, 4),
        lowercase: bool = True,
        format: str = "auto",
        fine_labels: bool = False,
        max_examples: Optional[int] = None,
        use_gold_labels: bool = False,
        skip_unlabeled: bool = False,
        sample_every: int = 1,
        sample_offset: int = 0,
        split: str = "all",
        dev_every: int = 10,
        split_file: Optional[str] = None,
        label_names: Optional[dict[str, str]] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        self.label_names = check_label_names(label_names)
        check_sampling(sample_every, sample_offset)
        check_split(split, dev_every, split_file, reader=True)
        self._split, self._dev_every, self._split_file = split, dev_every, split_file
        self.analyzer = make_analyzer(tuple(ngram_range), lowercase)  # type: ignore[arg-type]
        self._format, self._fine_labels = format, fine_labels
        self._max_examples, self._sample_every, self._sample_offset = max_examples, sample_every, sample_offset
        self._use_gold_labels = use_gold_labels
        self._skip_unlabeled = skip_unlabeled

    def _paths(self, file_path: str) -> list:
        if any(char in str(file_path) for char in "*?["):
            paths = sorted(glob.glob(str(file_path)))
            if not paths:
                raise FileNotFoundError(f"no file matches {file_path}")
            return paths
        return [str(file_path)]

    def teacher_labels(self, path: str, header: dict[str, Any]) -> list[str]:
        """The cache's label order under this reader's names, or a clear refusal: logits are matched
        to the student's classes by these names, so a naming mismatch would distil into wrong classes."""
        raw = [str(label) for label in header["labels"]]
        try:
            teacher_names = check_label_names(header.get("label_names"))
        except ValueError as error:
            raise TeacherCacheError(f"{path}:1: the header's label_names are not usable: {error}") from error
        if teacher_names and teacher_names != self.label_names:
            raise TeacherCacheError(
                f"{path}:1: the teacher named its labels with label_names {teacher_names}, "
                f"this reader with {self.label_names}; give the student's readers the "
                "teacher's label_names"
            )
        try:
            labels = [readable_label(label, self.label_names) for label in raw]
        except TextFormatError as error:
            raise TeacherCacheError(
                f"{path}:1: the teacher's labels {raw} do not fit this reader's label_names ({error})"
            ) from error
        if len(set(labels)) != len(labels):
            raise TeacherCacheError(
                f"{path}:1: the teacher's labels {raw} name the same class twice under label_names {self.label_names}"
            )
        return labels

    def _examples(self, path: str) -> Iterator[Instance]:
        header = read_header(path) if path.endswith(".jsonl") else None
        if header is not None:
            labels = self.teacher_labels(path, header)
            for record in read_cache(path):
                gold = None
                if self._use_gold_labels:
                    if record.label is None:
                        raise TeacherCacheError(f"{record.source}: no gold label, but use_gold_labels is set")
                    gold = readable_label(str(record.label), self.label_names, record.source)
                    if gold not in labels:
                        raise TeacherCacheError(
                            f"{record.source}: gold label {gold!r} is not one of the teacher's labels {labels}"
                        )
                yield self.text_to_instance(record.text, gold, record.logits, labels, source=record.source)
            return
        for example in reader_examples(
            path, self._format, self._fine_labels, self._split, self._dev_every, self._split_file, self._skip_unlabeled
        ):
            yield self.text_to_instance(example.text, example.label, source=example.source)

    def _read(self, file_path: str) -> Iterator[Instance]:
        for path in self._paths(file_path):
            yield from self.shard_iterable(
                subsample(self._examples(path), self._sample_every, self._max_examples, self._sample_offset)
            )

    def text_to_instance(
        self,
        text: str,
        label: Optional[str] = None,
        teacher_logits: Optional[list] = None,
        teacher_labels: Optional[list] = None,
        source: str = "",
    ) -> Instance:
        """`label` as the file writes it or already named; `teacher_labels` already named
        (`teacher_labels()`). A label the model's vocabulary lacks is indexed as `UNSEEN_LABEL` (scored as a
        wrong prediction, with one warning naming it and `source`, the example's `file:line`)."""
        fields: dict[str, Any] = {"ngrams": NgramField(text, self.analyzer, NGRAM_NAMESPACE)}
        if label is not None:
            fields["label"] = GoldLabel(readable_label(label, self.label_names, source), source=source or None)
        if teacher_logits is not None:
            fields["teacher_logits"] = TeacherLogitsField(teacher_logits, teacher_labels or [])
        return Instance(fields)
