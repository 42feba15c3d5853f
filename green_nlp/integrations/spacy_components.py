"""spaCy pipeline components that run green_nlp archives on `Doc`s.

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("green_nlp_parser", config={"archive": "runs/ewt_raw/model.tar.gz"})
    doc = nlp("The cat sat on the mat.")
    print([(t.text, t.head.i, t.dep_, t.pos_, t.lemma_) for t in doc])

The archive is loaded once per (path, device, overrides) and shared by every component that
names it. Components annotate in batches when run through `nlp.pipe`. Whitespace tokens (which
spaCy keeps and green_nlp models never saw) are left out of the model input and attached to a
neighbour with the relation `dep`.

One bad document does not cost its batch: in `nlp.pipe`, a document a component cannot annotate
(a sentence over the parser's `max_sentence_length`, a NUL character, a model error) comes out
unannotated by that component with the reason in `doc._.green_error` (`"<component>: why"`, a
warning names its index in the stream), and every other document is annotated as usual.
`nlp(text)` on such a document raises the error instead.
"""

import functools
from collections.abc import Callable, Sequence
from typing import Any, Optional

import numpy
from allennlp.models.archival import Archive, load_archive
from allennlp.predictors import Predictor
from spacy.attrs import DEP, HEAD, POS
from spacy.tokens import Doc, Span
from spacy.training import Alignment

from green_nlp.dataset_readers.conll_tagging import bioes_to_spans
from green_nlp.dataset_readers.conllu_dependencies import ConlluDependenciesReader
from green_nlp.integrations.spacy_common import (  # noqa: F401  (SPACE_DEPREL, ERROR_EXTENSION: this module's names too)
    ERROR_EXTENSION,
    SPACE_DEPREL,
    PipeComponent,
    check_sentence,
    fill_tree,
    sentences_of,
    set_ud_columns,
    words_of,
)


@functools.lru_cache(maxsize=8)
def cached_archive(path: str, cuda_device: int = -1, overrides: str = "") -> Archive:
    """Load an archive once per process (models are read-only here, so sharing is safe)."""
    archive = load_archive(path, cuda_device=cuda_device, overrides=overrides)
    archive.model.eval()
    return archive


class _ArchiveComponent(PipeComponent):
    """An archive loaded once (see `cached_archive`); batching and flagging from `PipeComponent`."""

    def __init__(self, name: str, archive: str, cuda_device: int, batch_size: int, overrides: str) -> None:
        super().__init__(name, batch_size)
        self.archive_path = archive
        self.archive = cached_archive(str(archive), cuda_device, overrides)


# ----------------------------------------------------------------------------------- parser
class ParserComponent(_ArchiveComponent):
    """Sets `token.head` and `token.dep_`, and `token.pos_`, `token.lemma_`, `token.morph` and
    `token.tag_` where the model predicts UPOS, LEMMA, FEATS and XPOS.

    Each sentence of `doc.sents` is parsed on its own (add a `sentencizer` first to split); a Doc
    without sentence boundaries is parsed as one sentence. A parser trained with gold UPOS input
    needs `token.pos_` set by an earlier component; parsers for raw text need nothing.
    """

    def __init__(
        self,
        name: str,
        archive: str,
        cuda_device: int = -1,
        batch_size: int = 32,
        overrides: str = "",
        max_sentence_length: int = 1000,
    ) -> None:
        super().__init__(name, archive, cuda_device, batch_size, overrides)
        self.model = self.archive.model
        reader = self.archive.validation_dataset_reader
        if not isinstance(reader, ConlluDependenciesReader) or not hasattr(self.model, "decode"):
            raise ValueError(
                f"{name}: {archive} is not a green_nlp dependency parser archive "
                f"(model {type(self.model).__name__}, reader {type(reader).__name__})"
            )
        self.reader = reader
        self.needs_upos = getattr(self.model, "upos_embedding", None) is not None
        self.max_sentence_length = max_sentence_length

    def _sentence_input(self, sentence: Span) -> tuple[list[int], list[str], Optional[list[str]]]:
        indices, words = words_of(sentence)
        check_sentence(sentence, indices, words, self.max_sentence_length)
        upos = None
        if self.needs_upos and words:
            upos = [sentence.doc[i].pos_ for i in indices]
            if not all(upos):
                raise ValueError(
                    f"{self.archive_path} was trained with gold UPOS input, but token.pos_ "
                    "is unset; put a tagger before it or use a parser trained for raw text "
                    "(upos_embedding_dim 0, predict_upos true)"
                )
        return indices, words, upos

    def annotate(self, docs: list[Doc]) -> None:
        jobs = []  # (doc number, sentence span, token indices, words, upos)
        for number, doc in enumerate(docs):
            for sentence in sentences_of(doc):
                jobs.append((number, sentence) + self._sentence_input(sentence))
        # sentences with words, shortest first: less padding per batch
        to_parse = sorted((k for k, job in enumerate(jobs) if job[3]), key=lambda k: len(jobs[k][3]))
        outputs: dict[int, dict[str, Any]] = {}
        for start in range(0, len(to_parse), self.batch_size):
            chunk = to_parse[start : start + self.batch_size]
            instances = [self.reader.text_to_instance(jobs[k][3], jobs[k][4]) for k in chunk]
            for instance in instances:
                self.reader.apply_token_indexers(instance)
            outputs.update(zip(chunk, self.model.forward_on_instances(instances)))
        arrays = {number: numpy.zeros((len(doc), 3), dtype="int64") for number, doc in enumerate(docs)}
        predicts_upos = False
        for k, (number, sentence, indices, _, _) in enumerate(jobs):
            output = outputs.get(k)
            predicts_upos |= output is not None and "predicted_upos" in output
            tree = None if output is None else _tree(output)
            fill_tree(docs[number], arrays[number], sentence, indices, tree)
        for number, doc in enumerate(docs):
            if len(doc):
                attrs = [HEAD, DEP, POS] if predicts_upos else [HEAD, DEP]
                doc.from_array(attrs, arrays[number][:, : len(attrs)].astype("uint64"))  # type: ignore[arg-type]  # thinc's Ints2d
        for k, (number, _, indices, _, _) in enumerate(jobs):
            output = outputs.get(k)
            if output is not None:
                columns = (output.get(f"predicted_{name}") for name in ("lemmas", "feats", "xpos"))
                set_ud_columns(docs[number], indices, *columns)


def _tree(output: dict[str, Any]) -> tuple[list[int], list[str], Optional[list[str]]]:
    """The model's output for one sentence as `fill_tree` reads it."""
    return output["predicted_heads"], output["predicted_deprels"], output.get("predicted_upos")


# -------------------------------------------------------------------------------------- NER
def _align(doc_words: list[str], model_words: list[str]) -> Callable[[int], list[int]]:
    """Map a model word position to positions in `doc_words` (identity when tokenizations agree)."""
    if doc_words == model_words:
        return lambda k: [k]
    alignment = Alignment.from_strings(model_words, doc_words)
    starts = numpy.concatenate([[0], numpy.cumsum(alignment.x2y.lengths)])
    data = alignment.x2y.data
    return lambda k: [int(x) for x in data[starts[k] : starts[k + 1]]]


def entity_spans(doc: Doc, indices: list[int], words: list[str], tags: Sequence[str]) -> list[Span]:
    """Entities from the model's `words` and BIOES `tags` for the Doc tokens at `indices`.

    Tags are read as the tagger's metric reads them (`bioes_to_spans`: lenient, an `I-`/`E-` that
    continues nothing starts a span); where the model tokenized differently from the Doc, spans
    are mapped onto the Doc tokens that cover them.
    """
    if len(words) != len(tags):
        raise ValueError(f"{len(words)} words but {len(tags)} tags")
    to_doc = _align([doc[i].text for i in indices], words)
    entities = []
    for label, (start, end) in bioes_to_spans(list(tags)):
        covered = [p for k in range(start, end + 1) for p in to_doc(k)]
        if covered:
            entities.append(Span(doc, indices[min(covered)], indices[max(covered)] + 1, label=label))
    return entities


class _PredictorComponent(_ArchiveComponent):
    def __init__(
        self,
        name: str,
        archive: str,
        cuda_device: int,
        batch_size: int,
        overrides: str,
        predictor: Optional[str],
        predictor_args: Optional[dict[str, Any]] = None,
    ) -> None:
        super().__init__(name, archive, cuda_device, batch_size, overrides)
        # predictor None: the model's own; predictor_args as `allennlp predict --predictor-args` gives them
        name_or_own: Any = predictor
        try:
            self.predictor = Predictor.from_archive(self.archive, name_or_own, extra_args=predictor_args)
        except TypeError as error:  # a predictor without such a setting; any other TypeError is not ours to name
            if not predictor_args:
                raise
            raise ValueError(f"{name}: the predictor takes no {sorted(predictor_args)}: {error}") from None


class NerComponent(_PredictorComponent):
    """Sets `doc.ents` from an LD-Net tagger archive (BIOES tags), replacing existing entities.

    Each sentence of `doc.sents` (the whole Doc when it has no sentence boundaries) goes to the
    predictor as `{"words": [...]}`, its non-space tokens. A sentence over `max_sentence_length`
    tokens is refused as the parser refuses it (in `nlp.pipe`: that doc flagged, the rest tagged).
    """

    def __init__(
        self,
        name: str,
        archive: str,
        cuda_device: int = -1,
        batch_size: int = 32,
        overrides: str = "",
        predictor: Optional[str] = None,
        max_sentence_length: int = 1000,
    ) -> None:
        if max_sentence_length < 1:
            raise ValueError(f"{name}: max_sentence_length must be positive, got {max_sentence_length}")
        super().__init__(name, archive, cuda_device, batch_size, overrides, predictor)
        self.max_sentence_length = max_sentence_length

    def annotate(self, docs: list[Doc]) -> None:
        jobs = []  # (doc number, token indices, words)
        for number, doc in enumerate(docs):
            for sentence in sentences_of(doc):
                indices, words = words_of(sentence)
                check_sentence(sentence, indices, words, self.max_sentence_length)
                if words:
                    jobs.append((number, indices, words))
        entities: list[list[Span]] = [[] for _ in docs]
        for start in range(0, len(jobs), self.batch_size):
            chunk = jobs[start : start + self.batch_size]
            outputs = self.predictor.predict_batch_json([{"words": words} for _, _, words in chunk])
            for (number, indices, words), output in zip(chunk, outputs):
                entities[number] += entity_spans(docs[number], indices, output.get("words", words), output["tags"])
        for doc, found in zip(docs, entities):
            doc.ents = found


# ------------------------------------------------------------------------------- classifier
def probs_to_cats(probs: Sequence[float], labels: dict[int, str]) -> dict[str, float]:
    """Class probabilities in label-index order -> spaCy's `doc.cats`."""
    if len(probs) != len(labels):
        raise ValueError(f"{len(probs)} probabilities but {len(labels)} labels in the vocabulary")
    return {labels[i]: float(p) for i, p in enumerate(probs)}


class ClassifierComponent(_PredictorComponent):
    """Sets `doc.cats` (label -> probability) from a classifier archive such as the n-gram DAN.

    The labels are the predictor's `label_names` (the vocabulary's, under the reader's
    `label_names` where it has one), so SST-2 models trained with names give
    `{"negative": ..., "positive": ...}`.
    """

    def __init__(
        self,
        name: str,
        archive: str,
        cuda_device: int = -1,
        batch_size: int = 32,
        overrides: str = "",
        predictor: Optional[str] = None,
        label_namespace: str = "labels",
        split_sentences: bool = False,
    ) -> None:
        # the split is the green_text_classifier predictor's setting (`--predictor-args`), as the runtime's
        predictor_args = {"split_sentences": True} if split_sentences else None
        super().__init__(name, archive, cuda_device, batch_size, overrides, predictor, predictor_args)
        namespace = getattr(self.archive.model, "_label_namespace", label_namespace)
        readable = getattr(self.archive.validation_dataset_reader, "label_names", None) or {}
        vocabulary = self.archive.model.vocab.get_index_to_token_vocabulary(namespace)
        self.labels = {index: readable.get(label, label) for index, label in vocabulary.items()}
        if not self.labels:
            raise ValueError(f"{name}: {archive} has no labels in vocabulary namespace {namespace!r}")

    def annotate(self, docs: list[Doc]) -> None:
        outputs = (
            self.predictor.predict_batch_json([{"sentence": doc.text, "text": doc.text} for doc in docs])
            if docs
            else []
        )
        for doc, output in zip(docs, outputs):
            names = output.get("label_names")
            doc.cats = probs_to_cats(output["probs"], dict(enumerate(names)) if names else self.labels)
            if "label" in output and doc.cats and max(doc.cats, key=lambda label: doc.cats[label]) != output["label"]:
                raise ValueError(
                    f"the predictor's label {output['label']!r} is not the most probable "
                    "class of its probs; label_namespace does not match the model"
                )
