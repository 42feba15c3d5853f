"""spaCy components on exported runtime folders: `pip install .` is enough (onnxruntime, no torch).

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("green_nlp_parser", config={"model": "en-ewt-parser"})
    doc = nlp("The cat sat on the mat.")
    print([(t.text, t.head.i, t.dep_, t.pos_, t.lemma_, str(t.morph)) for t in doc])

`model` is a shipped model's name or a folder from `green-nlp green-export`, loaded once per
(model, precision) and shared. The parser sets heads, relations and UPOS, and where the folder has
the LEMMA / FEATS / XPOS heads also `token.lemma_`, `token.morph` and `token.tag_`. The classifier
sets `doc.cats`. Batching, bad docs (`doc._.green_error`) and whitespace tokens behave as in the
archive components (`spacy_common`).
"""

import functools
from typing import Any, Optional

import numpy
from spacy.attrs import DEP, HEAD, POS
from spacy.tokens import Doc, Span

from green_nlp.integrations.spacy_common import (
    PipeComponent,
    check_sentence,
    check_text,
    fill_tree,
    sentences_of,
    set_ud_columns,
    words_of,
)

NO_FEATURES_EXTENSION = "green_no_known_features"  # doc._.green_no_known_features: the label is the prior
if not Doc.has_extension(NO_FEATURES_EXTENSION):
    Doc.set_extension(NO_FEATURES_EXTENSION, default=None)


@functools.lru_cache(maxsize=8)
def cached_model(model: str, precision: str = "auto") -> Any:
    """A runtime model loaded once per process (sessions are read-only, so sharing is safe)."""
    from green_nlp.runtime import load

    return load(model, precision=precision)


def _loaded(name: str, model: str, precision: str, family: str) -> Any:
    loaded = cached_model(str(model), precision)
    if getattr(loaded, "family", None) != family:
        raise ValueError(f"{name}: {model} is a {getattr(loaded, 'family', '?')} model, not a {family}")
    return loaded


class RuntimeParserComponent(PipeComponent):
    """`token.head`, `token.dep_`, `token.pos_` (and lemma, morph, tag where the model has them)."""

    def __init__(
        self, name: str, model: str, batch_size: int = 32, max_sentence_length: int = 1000, precision: str = "auto"
    ) -> None:
        super().__init__(name, batch_size)
        self.model_name = model
        self.parser = _loaded(name, model, precision, "parser")
        self.max_sentence_length = min(max_sentence_length, self.parser.max_sentence_length)

    def _sentence_input(self, sentence: Span) -> tuple[list[int], list[str], Optional[list[str]]]:
        indices, words = words_of(sentence)
        check_sentence(sentence, indices, words, self.max_sentence_length)
        upos = None
        if self.parser.inputs.needs_upos and words:
            upos = [sentence.doc[i].pos_ for i in indices]
            if not all(upos):
                raise ValueError(
                    f"{self.model_name} was trained with gold UPOS input, but token.pos_ is unset; put a "
                    "tagger before it or use a parser for raw text"
                )
        return indices, words, upos

    def annotate(self, docs: list[Doc]) -> None:
        jobs = [
            (number, sentence) + self._sentence_input(sentence)
            for number, doc in enumerate(docs)
            for sentence in sentences_of(doc)
        ]
        with_words = [k for k, job in enumerate(jobs) if job[3]]
        trees = dict(
            zip(
                with_words,
                self.parser.parse_sentences([(jobs[k][3], jobs[k][4]) for k in with_words], batch_size=self.batch_size),
            )
        )
        for tree in trees.values():
            if tree.error is not None:  # the runtime's InputFailure: its checks refused a sentence
                raise ValueError(tree.error.alone)
        arrays = [numpy.zeros((len(doc), 3), dtype="int64") for doc in docs]
        predicts_upos = self.parser.upos_labels is not None and not self.parser.inputs.needs_upos
        for k, (number, sentence, indices, _, _) in enumerate(jobs):
            tree = trees.get(k)
            fill_tree(
                docs[number],
                arrays[number],
                sentence,
                indices,
                None if tree is None else (tree.heads, tree.deprels, tree.upos),
            )
        for doc, array in zip(docs, arrays):
            if len(doc):
                attrs = [HEAD, DEP, POS] if predicts_upos else [HEAD, DEP]
                doc.from_array(attrs, array[:, : len(attrs)].astype("uint64"))  # type: ignore[arg-type]  # thinc's Ints2d
        for k, tree in trees.items():
            number, _, indices = jobs[k][:3]
            set_ud_columns(docs[number], indices, tree.lemmas, tree.feats, tree.xpos)


class RuntimeClassifierComponent(PipeComponent):
    """`doc.cats` (label -> probability) from a runtime classifier folder, e.g. `en-sst2-sentiment`.
    A text without a single known n-gram gets the model's prior and `doc._.green_no_known_features`
    True, or with `no_known_features="error"` it is a bad doc (an error, flagged under `nlp.pipe`).
    `split_sentences`: `doc.cats` from the mean of the text's sentences (`green-nlp classify
    --split-sentences`), for texts longer than the sentences the model learnt from."""

    def __init__(
        self,
        name: str,
        model: str,
        batch_size: int = 32,
        no_known_features: str = "flag",
        precision: str = "auto",
        split_sentences: bool = False,
    ) -> None:
        super().__init__(name, batch_size)
        from green_nlp.runtime.classifier import check_no_features_setting

        self.no_known_features = check_no_features_setting(no_known_features)
        self.split_sentences = bool(split_sentences)
        # shared with other components of the process (`cached_model`): the split goes with each call
        self.classifier = _loaded(name, model, precision, "classifier")

    def annotate(self, docs: list[Doc]) -> None:
        from green_nlp.runtime.classifier import no_features_message

        for doc in docs:
            check_text(doc)
        texts = [doc.text for doc in docs]
        results = list(
            self.classifier.classify_many(texts, batch_size=self.batch_size, split_sentences=self.split_sentences)
        )
        for result in results:
            if result.error is not None:  # the runtime's InputFailure, e.g. for an empty text
                raise ValueError(f"the text {result.error.problem}")
        if self.no_known_features == "error":
            for result in results:
                if result.no_known_features:
                    raise ValueError(no_features_message())
        for doc, result in zip(docs, results):
            doc.cats = dict(result.probabilities)
            doc._.set(NO_FEATURES_EXTENSION, result.no_known_features)
