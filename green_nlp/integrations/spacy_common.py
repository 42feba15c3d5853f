"""What every green_nlp spaCy component shares, on spaCy and numpy alone (no torch, no allennlp):
batching over `nlp.pipe` with one bad doc flagged instead of failing its batch, the checks a sentence
passes before a model sees it, and writing a dependency tree into a Doc.

Both families of components build on it: the archive components (`spacy_components`, torch) and the
runtime-folder components (`spacy_runtime`, onnxruntime), so they behave alike.
"""

import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional

import numpy
from spacy.parts_of_speech import IDS as POS_IDS
from spacy.tokens import Doc, Span
from spacy.util import minibatch

SPACE_DEPREL = "dep"  # UD's "unspecified dependency", for whitespace tokens
ERROR_EXTENSION = "green_error"  # doc._.green_error: why a green_nlp component left the doc unannotated

logger = logging.getLogger("green_nlp.integrations.spacy_components")  # one logger for every component
if not Doc.has_extension(ERROR_EXTENSION):
    Doc.set_extension(ERROR_EXTENSION, default=None)


def words_of(tokens: Iterable[Any]) -> tuple[list[int], list[str]]:
    """Doc indices and texts of the non-whitespace tokens."""
    kept = [token for token in tokens if not token.is_space]
    return [token.i for token in kept], [token.text for token in kept]


def sentences_of(doc: Doc) -> list[Span]:
    """`doc.sents` where sentence starts are set, else the whole Doc as one sentence."""
    return list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]


def check_sentence(sentence: Span, indices: list[int], words: list[str], max_sentence_length: int) -> None:
    """The checks every component makes before a sentence reaches a model: no NUL (the file paths
    and the predictors refuse it; it would be copied into the annotations), not over the length
    limit (a parser's scores are n² in memory; a tagger's time grows with it)."""
    for i, word in zip(indices, words):
        if "\x00" in word:
            raise ValueError(f"token {i} ({word!r}) holds a NUL character; remove it from the text")
    if len(words) > max_sentence_length:
        raise ValueError(
            f"a sentence of {len(words)} tokens (from token {sentence.start}) is over "
            f"max_sentence_length={max_sentence_length}; split it or raise the limit"
        )


def check_text(doc: Doc) -> None:
    """A classifier reads the whole text: the same NUL refusal."""
    if "\x00" in doc.text:
        raise ValueError(f"the text holds a NUL character at position {doc.text.index(chr(0)) + 1}")


class PipeComponent:
    """`__call__` as a batch of one, `pipe` in batches; subclasses implement `annotate`."""

    def __init__(self, name: str, batch_size: int) -> None:
        if batch_size < 1:
            raise ValueError(f"{name}: batch_size must be positive, got {batch_size}")
        self.name = name
        self.batch_size = batch_size

    def __call__(self, doc: Doc) -> Doc:
        try:
            self.annotate([doc])
        except ValueError as error:  # the messages below do not name the component: say which one
            raise ValueError(f"{self.name}: {error}") from error
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: Optional[int] = None) -> Iterator[Doc]:
        """Annotate batch by batch; a batch that fails is annotated one doc at a time, so only the
        docs that fail alone are left unannotated (and flagged in `doc._.green_error`)."""
        position = 0
        for docs in minibatch(stream, size=batch_size or self.batch_size):
            try:
                self.annotate(docs)
            except Exception:  # noqa: BLE001  find the bad doc(s); the others must still be annotated
                for offset, doc in enumerate(docs):
                    self._annotate_or_flag(doc, position + offset)
            position += len(docs)
            yield from docs

    def _annotate_or_flag(self, doc: Doc, position: int) -> None:
        try:
            self.annotate([doc])
        except Exception as error:  # noqa: BLE001  reported on the doc, as the class docstring says
            reason = f"{self.name}: {error}"
            earlier = doc._.get(ERROR_EXTENSION)  # another green component's reason stays
            doc._.set(ERROR_EXTENSION, f"{earlier}; {reason}" if earlier else reason)
            logger.warning("document %d of the stream left unannotated by %s", position, reason)

    def annotate(self, docs: list[Doc]) -> None:
        """Annotate every doc or raise (ValueError for bad input) without naming the component:
        `__call__` and `pipe` put the name in front once."""
        raise NotImplementedError


def as_int64(string_id: int) -> int:
    """spaCy's string id (an unsigned 64-bit hash; `nummod`'s and `aux:pass`'s are over 2^63) as
    the int64 with the same bits, for an int64 array that also holds negative head offsets and is
    cast to uint64 for `Doc.from_array`, which gives the hash back."""
    return string_id - (1 << 64) if string_id >= 1 << 63 else string_id


def set_ud_columns(
    doc: Doc,
    indices: list[int],
    lemmas: Optional[Sequence[str]],
    feats: Optional[Sequence[str]],
    xpos: Optional[Sequence[str]],
) -> None:
    """`token.lemma_`, `token.morph` and `token.tag_` of the words at `indices`, from each column the
    model predicts (None: the model has no such head, and the token keeps what it had)."""
    for k, i in enumerate(indices):
        token = doc[i]
        if lemmas is not None:
            token.lemma_ = lemmas[k]
        if feats is not None:
            token.set_morph(None if feats[k] == "_" else feats[k])  # type: ignore[attr-defined]  # not in the stub
        if xpos is not None:
            token.tag_ = xpos[k]


def fill_tree(
    doc: Doc,
    array: numpy.ndarray,
    sentence: Span,
    indices: list[int],
    tree: Optional[tuple[Sequence[int], Sequence[str], Optional[Sequence[str]]]],
) -> None:
    """One sentence into `array`'s columns: relative head (spaCy's HEAD), relation string id, UPOS
    symbol id. `tree`: (1-based heads, relations, UPOS or None) of the words at `indices`; None for a
    sentence without words. Whitespace tokens hang off the preceding word (or the next) as `dep`/SPACE."""
    strings = doc.vocab.strings
    if tree is not None:
        heads, deprels, upos = tree
        for k, (i, head, label) in enumerate(zip(indices, heads, deprels)):
            array[i, 0] = (indices[head - 1] if head > 0 else i) - i
            array[i, 1] = as_int64(strings.add(label))
            if upos is not None:
                array[i, 2] = POS_IDS.get(upos[k], POS_IDS["X"])
    words = set(indices)
    for token in sentence:
        if token.i in words:
            continue
        before = [i for i in indices if i < token.i]
        anchor = before[-1] if before else (indices[0] if indices else token.i)
        array[token.i, 0] = anchor - token.i
        array[token.i, 1] = as_int64(strings.add(SPACE_DEPREL))
        array[token.i, 2] = POS_IDS["SPACE"]
