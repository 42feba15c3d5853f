"""Teacher labelling, for `allennlp green-label-teacher` and its Ray workers alike: load a teacher
archive and turn chunks of input into cache records.

Two kinds of teacher: a classifier (logits per document, `ClassifierLabeller`) and a parser
(`ParserLabeller`: raw text split into sentences and tokenized as the runtime does, then the
teacher's 1-best tree and its top-k arc / label / UPOS distributions per word, the records of a
parser cache, `green_nlp.data.teacher_cache`). Both commands (one process, and `--ray`) call this
module, so a chunk gets the same records wherever it runs.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import torch
from allennlp.data import Batch
from allennlp.models.archival import load_archive
from allennlp.nn import util as nn_util

from green_nlp.data.teacher_cache import PARSER_KIND, encode_top
from green_nlp.dataset_readers.conllu_dependencies import DEPREL_NAMESPACE, UPOS_NAMESPACE
from green_nlp.dataset_readers.text_classification import TextExample, read_examples


def load_teacher(
    archive_file: str, cuda_device: int = -1, overrides: Optional[dict[str, Any]] = None
) -> tuple[Any, Any, list[str], Optional[dict[str, str]]]:
    """(model in eval mode, its validation reader, label names in index order, the reader's label_names)."""
    archive = load_archive(archive_file, cuda_device=cuda_device, overrides=overrides or {})
    model, reader = archive.model.eval(), archive.validation_dataset_reader
    # NgramDan names its namespace publicly; AllenNLP's basic_classifier (the MiniLM teacher) keeps it private
    namespace = (
        DEPREL_NAMESPACE
        if is_parser(model)
        else getattr(model, "label_namespace", getattr(model, "_label_namespace", "labels"))
    )
    names = model.vocab.get_index_to_token_vocabulary(namespace)
    label_names = getattr(reader, "label_names", None)
    return model, reader, [names[i] for i in range(len(names))], dict(label_names) if label_names else None


def is_parser(model: Any) -> bool:
    """A dependency parser teacher (it scores arcs), rather than a classifier."""
    return callable(getattr(model, "score", None)) and callable(getattr(model, "label_scores", None))


def predict_logits(model: Any, reader: Any, chunk: list[TextExample], batch_size: int) -> list[list[float]]:
    """A classifier's logits in chunk order; batches are formed from length-sorted documents (less padding)."""
    order = sorted(range(len(chunk)), key=lambda i: len(chunk[i].text))
    logits: list[Optional[list[float]]] = [None] * len(chunk)
    for start in range(0, len(order), batch_size):
        indices = order[start : start + batch_size]
        instances = [reader.text_to_instance(chunk[i].text) for i in indices]
        for instance in instances:
            reader.apply_token_indexers(instance)
        with torch.no_grad():
            outputs = model.forward_on_instances(instances)
        for i, output in zip(indices, outputs):
            logits[i] = [float(x) for x in output["logits"]]
    return logits  # type: ignore[return-value]


# ------------------------------------------------------------------ raw text -> sentences
@dataclass(frozen=True)
class RawSentence:
    """One sentence of raw text as the runtime tokenizes it, and where it comes from (`file:line#i`)."""

    words: list[str]
    source: str


def raw_sentences(
    paths: list[str],
    format: str = "auto",
    max_words: Optional[int] = None,
    max_documents_per_input: Optional[int] = None,
    language: str = "en",
) -> Iterator[RawSentence]:
    """The sentences of every document of `paths` (any text-classification format; `lines` for plain
    text), split and tokenized by the runtime's `TextSegmenter`, in a fixed order (so a resumed run
    skips exactly what was written). Sentences longer than `max_words` words are left out."""
    from green_nlp.runtime.parser_segmenter import TextSegmenter

    segmenter = TextSegmenter(language)
    for path in paths:
        for number, example in enumerate(read_examples(path, format)):
            if max_documents_per_input is not None and number >= max_documents_per_input:
                break
            # the segmenter ends a sentence at each HTML line break (IMDB marks paragraphs so)
            for index, (_, words) in enumerate(segmenter.segment(example.text)):
                if max_words is None or len(words) <= max_words:
                    yield RawSentence(words, f"{example.source}#{index}")


# ------------------------------------------------------------------ labellers
class ClassifierLabeller:
    """A classifier teacher: `label(chunk)` gives each document's logits."""

    kind = "classifier"

    def __init__(self, model: Any, reader: Any, labels: list[str], label_names: Optional[dict[str, str]]) -> None:
        self.model, self.reader, self.labels, self.label_names = model, reader, labels, label_names

    def describe(self) -> dict[str, Any]:
        return {"labels": self.labels, "label_names": self.label_names}

    def label(self, chunk: list[TextExample], batch_size: int) -> list[list[float]]:
        return predict_logits(self.model, self.reader, chunk, batch_size)


class ParserLabeller:
    """
    A parser teacher: `label(chunk)` gives each sentence's parser-cache record.

    For each word: the teacher's 1-best head and label (its own tree decoding, as it predicts) and
    UPOS; its `top_k_heads` most probable heads with their probabilities; at each of those heads the
    `top_k_labels` most probable labels; the `top_k_labels` most probable UPOS tags; and the
    probability mass the cut leaves out.
    """

    kind = PARSER_KIND

    def __init__(self, model: Any, reader: Any, top_k_heads: int = 4, top_k_labels: int = 4) -> None:
        if top_k_heads < 1 or top_k_labels < 1:
            raise ValueError(f"top-k sizes must be positive, got heads {top_k_heads}, labels {top_k_labels}")
        self.model, self.reader = model, reader
        vocab = model.vocab
        self.deprels = [
            vocab.get_token_from_index(i, DEPREL_NAMESPACE) for i in range(vocab.get_vocab_size(DEPREL_NAMESPACE))
        ]
        self.upos: Optional[list[str]] = None
        if getattr(model, "upos_projection", None) is not None:
            self.upos = [
                vocab.get_token_from_index(i, UPOS_NAMESPACE) for i in range(vocab.get_vocab_size(UPOS_NAMESPACE))
            ]
        if len(self.deprels) > 256 or (self.upos is not None and len(self.upos) > 256):
            raise ValueError("the parser cache stores labels in one byte: at most 256 labels and UPOS tags")
        self.top_k_heads, self.top_k_labels = top_k_heads, top_k_labels

    def describe(self) -> dict[str, Any]:
        return {
            "deprels": self.deprels,
            "upos": self.upos,
            "top_k_heads": self.top_k_heads,
            "top_k_labels": self.top_k_labels,
        }

    def label(self, chunk: list[RawSentence], batch_size: int) -> list[dict[str, Any]]:
        """Records in chunk order; batches are formed from length-sorted sentences (less padding)."""
        order = sorted(range(len(chunk)), key=lambda i: len(chunk[i].words))
        records: list[Optional[dict[str, Any]]] = [None] * len(chunk)
        for start in range(0, len(order), batch_size):
            indices = order[start : start + batch_size]
            for i, record in zip(indices, self._label_batch([chunk[i] for i in indices])):
                records[i] = record
        return records  # type: ignore[return-value]

    def _label_batch(self, sentences: list[RawSentence]) -> list[dict[str, Any]]:
        model = self.model
        instances = [self.reader.text_to_instance(s.words) for s in sentences]
        for instance in instances:
            self.reader.apply_token_indexers(instance)
        batch = Batch(instances)
        batch.index_instances(model.vocab)
        tensors = nn_util.move_to_device(batch.as_tensor_dict(), model._get_prediction_device())
        with torch.no_grad():
            scores = model.score(tensors["words"], None)
            decoded = model.decode(scores)
            # (batch, n, n+1): each word's distribution over heads
            arc_probs = scores["arc_scores"].float().softmax(-1)[:, 1:]
            k = min(self.top_k_heads, arc_probs.size(-1))
            head_probs, heads = arc_probs.topk(k, dim=-1)
            root = heads.new_zeros(heads.size(0), 1)
            m = min(self.top_k_labels, len(self.deprels))
            label_probs, labels = [], []
            for j in range(k):
                probs = model.label_scores(scores, torch.cat([root, heads[..., j]], dim=1))[:, 1:].float().softmax(-1)
                top_p, top_i = probs.topk(m, dim=-1)
                label_probs.append(top_p)
                labels.append(top_i)
            # (batch, n, k, m)
            label_p, label_i = torch.stack(label_probs, dim=2), torch.stack(labels, dim=2)
            upos_p = upos_i = None
            if self.upos is not None and "upos_logits" in scores:
                upos_p, upos_i = scores["upos_logits"].float().softmax(-1).topk(min(m, len(self.upos)), dim=-1)
        records = []
        for b, sentence in enumerate(sentences):
            n = len(sentence.words)
            top = encode_top(
                _pad_last(heads[b, :n].cpu().numpy(), self.top_k_heads, 0),
                _pad_last(head_probs[b, :n].cpu().numpy(), self.top_k_heads, 0.0),
                _pad_last(_pad_axis(label_i[b, :n].cpu().numpy(), 1, self.top_k_heads, 0), self.top_k_labels, 0),
                _pad_last(_pad_axis(label_p[b, :n].cpu().numpy(), 1, self.top_k_heads, 0.0), self.top_k_labels, 0.0),
                None if upos_i is None else _pad_last(upos_i[b, :n].cpu().numpy(), self.top_k_labels, 0),
                None if upos_p is None else _pad_last(upos_p[b, :n].cpu().numpy(), self.top_k_labels, 0.0),
            )
            arc_cut = float((1.0 - head_probs[b, :n].sum(-1)).clamp(min=0).sum())
            label_cut = float((1.0 - label_p[b, :n, 0].sum(-1)).clamp(min=0).sum())
            records.append(
                {
                    "words": sentence.words,
                    "source": sentence.source,
                    "heads": decoded["heads"][b, :n].tolist(),
                    "labels": decoded["head_tags"][b, :n].tolist(),
                    "upos": decoded["upos_tags"][b, :n].tolist() if "upos_tags" in decoded else None,
                    "top": top,
                    "cut": [round(arc_cut, 6), round(label_cut, 6)],
                }
            )
        return records


def _pad_axis(array: np.ndarray, axis: int, size: int, value: float) -> np.ndarray:
    """`array` padded with `value` to `size` along `axis` (a sentence shorter than k has fewer heads)."""
    missing = size - array.shape[axis]
    if missing <= 0:
        return array
    widths = [(0, 0)] * array.ndim
    widths[axis] = (0, missing)
    return np.pad(array, widths, constant_values=value)


def _pad_last(array: np.ndarray, size: int, value: float) -> np.ndarray:
    return _pad_axis(array, array.ndim - 1, size, value)


def load_labeller(
    archive_file: str,
    cuda_device: int = -1,
    overrides: Optional[dict[str, Any]] = None,
    top_k_heads: int = 4,
    top_k_labels: int = 4,
) -> Any:
    """The labeller for the teacher in `archive_file`: a `ParserLabeller` for a parser, else a
    `ClassifierLabeller`."""
    model, reader, labels, label_names = load_teacher(archive_file, cuda_device, overrides)
    if is_parser(model):
        return ParserLabeller(model, reader, top_k_heads, top_k_labels)
    return ClassifierLabeller(model, reader, labels, label_names)


class LocalTeacher:
    """The teacher in this process: chunks labelled one after the other (the interface `RayTeacher`
    shares: `describe()`, `label()`)."""

    def __init__(
        self,
        archive_file: str,
        cuda_device: int = -1,
        overrides: Optional[dict[str, Any]] = None,
        top_k_heads: int = 4,
        top_k_labels: int = 4,
    ) -> None:
        self.labeller = load_labeller(archive_file, cuda_device, overrides, top_k_heads, top_k_labels)
        self.kind: str = self.labeller.kind

    def describe(self) -> dict[str, Any]:
        return self.labeller.describe()

    def label(self, chunks: Iterable[list[Any]], batch_size: int) -> Iterator[tuple[list[Any], list[Any]]]:
        for chunk in chunks:
            yield chunk, self.labeller.label(chunk, batch_size)
