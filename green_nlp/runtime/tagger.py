"""The LD-Net tagger on onnxruntime: the `green_sentence_tagger` predictor's answers without torch
or allennlp.

Raw text is split into sentences and words by the parser runtime's `TextSegmenter` (the predictor's
own spaCy rules); words become ids as the archive's indexers made them (`ParserInputs`, plus the
LMs' vocabulary); the exported graph (`green_nlp.export.tagger`) gives each word's tag scores, and
the CRF's constrained Viterbi path is decoded in numpy (`tagger_viterbi`).
"""

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np

from green_nlp.names import LDNET_TAGGER, current_name
from green_nlp.runtime.errors import InputError, InputFailure, ModelFolderError
from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.input_checks import (
    SentenceLimited,
    check_many,
    check_text,
    check_tokens,
)
from green_nlp.runtime.length_batches import DEFAULT_SORT_WINDOW, by_length, check_batching, split_windows, windows
from green_nlp.runtime.parser_inputs import ParserInputs, Vocab, model_calls
from green_nlp.runtime.parser_segmenter import TextSegmenter
from green_nlp.runtime.tagger_results import TaggedText
from green_nlp.runtime.tagger_viterbi import constrained_scores, viterbi_paths
from green_nlp.runtime.treebank_tokenization import from_folder as tokenization_rules


class TaggerRuntime(SentenceLimited):
    """A loaded tagger folder. Use `green_nlp.runtime.load(folder)` rather than this constructor."""

    family = "tagger"

    def __init__(self, folder: Path, meta: dict[str, Any], session: Any) -> None:
        if current_name(meta.get("model_type", "")) != LDNET_TAGGER:
            raise ValueError(f"{folder}: this runtime runs LD-Net taggers, not {meta.get('model_type')!r}")
        self.folder = Path(folder)
        self.meta = meta
        self.session = session
        inputs = meta["inputs"]
        self.inputs = ParserInputs(inputs)  # words and characters are indexed as the parser's are
        self.lm = Vocab(inputs["lm"]) if inputs.get("lm") else None
        self.lm_input = inputs["lm"]["input"] if inputs.get("lm") else None
        self._output = meta["outputs"]["logits"]
        self.labels: list[str] = list(meta["labels"])
        self.transitions, self.to_first, self.from_last = constrained_scores(meta["crf"])
        self.segmenter = TextSegmenter(
            meta.get("tokenizer", {}).get("language", "en"),
            rules=tokenization_rules(self.folder, meta),
            folder=self.folder,
        )
        # a sentence's words held at once: one line of 20,000 words took 2.7 GB (checked by folder_schema)
        self._max_sentence_length = int(meta.get("max_sentence_length", 1000))

    # ------------------------------------------------------------- public API
    def tag(self, text: str) -> TaggedText:
        """Raw text (a sentence or a paragraph) -> its words and BIOES tags, sentence by sentence.
        A text the model cannot take (empty, holding a NUL or a lone surrogate) raises `InputError`
        saying why; a leading byte-order mark is dropped."""
        result = next(self._tag_grouped([self._text_sentences(text)]))
        assert isinstance(result, TaggedText)
        return result

    def tag_many(
        self, lines: Iterable[str], batch_size: int = 32, sort_window: int = DEFAULT_SORT_WINDOW
    ) -> Iterator[Union[TaggedText, InputFailure]]:
        """One `TaggedText` per input text, in input order. Streams, so `lines` may be a file:
        `sort_window` texts are read at a time, their sentences sorted by length and tagged
        `batch_size` per model call (see `length_batches`). A text the model cannot take gives an
        `InputFailure` in its place, its error naming it by its 0-based index (`texts[2] ...`)."""
        check_many("texts", lines)
        check_batching(batch_size, sort_window)
        for groups in split_windows(lines, sort_window, self._text_sentences):
            yield from self._tag_grouped(groups, batch_size)

    def tag_tokens(self, words: Sequence[str]) -> TaggedText:
        """One pre-tokenized sentence (the predictor's `{"words": [...]}` input), checked as the CLI
        checks such a line (`InputError` for no words, an empty word, a tab, line break or NUL)."""
        words, _ = check_tokens(words)
        self.check_length(words)
        result = next(self._tag_grouped([[words]]))
        assert isinstance(result, TaggedText)
        return result

    def tag_sentences(
        self, sentences: Iterable[Sequence[str]], batch_size: int = 32, sort_window: int = DEFAULT_SORT_WINDOW
    ) -> Iterator[Union[list[str], InputFailure]]:
        """The tags of many pre-tokenized sentences, in input order; batched as `tag_many`, and as
        there a sentence the model cannot take gives an `InputFailure` in its place."""
        check_many("sentences", sentences)
        check_batching(batch_size, sort_window)
        for number, chunk in enumerate(windows(sentences, sort_window)):
            groups: list[Union[list[list[str]], InputFailure]] = []
            for offset, words in enumerate(chunk):
                try:
                    checked = check_tokens(words)[0]
                    self.check_length(checked)
                    groups.append([checked])
                except InputError as error:
                    groups.append(InputFailure(error.at(number * sort_window + offset, "sentences")))
            for result in self._tag_grouped(groups, batch_size):
                yield result.tags if isinstance(result, TaggedText) else result

    def _text_sentences(self, text: Any) -> list[list[str]]:
        """A text's sentences as words, or an InputError (subject `text`)."""
        text = check_text(text, "is empty: nothing to tag")
        sentences = [words for _, words in self.segmenter.segment(text.strip())]
        if not sentences:
            raise InputError("text", "has no words to tag")
        for number, words in enumerate(sentences, start=1):
            self.check_length(words, number)
        return sentences

    # --------------------------------------------------------------- batching
    def _tag_grouped(
        self, groups: Sequence[Union[list[list[str]], InputFailure]], batch_size: int = 32
    ) -> Iterator[Union[TaggedText, InputFailure]]:
        flat = [words for group in groups if not isinstance(group, InputFailure) for words in group]
        tags = iter(self._tag_sorted(flat, batch_size))
        for group in groups:
            if isinstance(group, InputFailure):
                yield group
                continue
            result = TaggedText()
            for words in group:
                result.add_sentence(words, next(tags))
            yield result

    def _tag_sorted(self, sentences: list[list[str]], batch_size: int) -> list[list[str]]:
        """Tags of each sentence in input order, `batch_size` sentences of similar length per call."""
        if any(not words for words in sentences):
            raise ValueError("no tokens to tag")
        tags: list[Optional[list[str]]] = [None] * len(sentences)
        for batch in by_length([len(words) for words in sentences], batch_size):
            for index, sentence_tags in zip(batch, self._predict([sentences[i] for i in batch])):
                tags[index] = sentence_tags
        return tags  # type: ignore[return-value]

    def _feed(self, sentences: list[list[str]]) -> dict[str, np.ndarray]:
        feed = self.inputs.feed(sentences, [None] * len(sentences))
        if self.lm is not None:
            lm_ids = np.zeros(feed[self.inputs.word_input].shape, dtype=np.int64)
            for b, words in enumerate(sentences):
                lm_ids[b, : len(words)] = [self.lm(word) for word in words]
            assert self.lm_input is not None  # set with self.lm
            feed[self.lm_input] = lm_ids
        return feed

    def _predict(self, sentences: list[list[str]]) -> list[list[str]]:
        """Tags of each sentence, in one model call over the sentences sorted by length (less padding)."""
        if not sentences:
            return []
        if any(not words for words in sentences):
            raise ValueError("no tokens to tag")
        order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
        batch = [sentences[i] for i in order]
        paths = []
        for run in model_calls(batch):  # one run but for huge batches (parser_inputs)
            part = [batch[i] for i in run]
            logits = self.session.run([self._output], self._feed(part))[0]
            if logits.shape[-1] != len(self.labels):
                raise ModelFolderError(
                    f"{self.folder}: the graph scores {logits.shape[-1]} tags, {META_FILE} lists "
                    f"{len(self.labels)}; re-export the model"
                )
            lengths = [len(words) for words in part]
            paths += viterbi_paths(logits, lengths, self.transitions, self.to_first, self.from_last)
        restored: list[Optional[list[str]]] = [None] * len(sentences)
        for position, index in enumerate(order):
            restored[index] = [self.labels[t] for t in paths[position]]
        return restored  # type: ignore[return-value]
