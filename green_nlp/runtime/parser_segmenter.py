"""Raw text -> sentences of words, exactly as the `green_dependency_parser` predictor splits it.

`spacy.blank(language)` plus the rule-based sentencizer, no downloaded model; whitespace tokens
dropped. spaCy is imported on first use only: in an environment with torch, spaCy's thinc imports
torch, and pre-tokenized input needs no tokenizer at all.

`split_sentences=False` keeps a text as one sentence (the tokenizer alone runs): what `green-nlp
parse|tag` do by default, so that a corpus of one sentence per line keeps its sentences.
"""

from typing import Any


class TextSegmenter:
    def __init__(self, language: str = "en", split_sentences: bool = True) -> None:
        self.language = language
        self.split_sentences = split_sentences
        self._nlp: Any = None

    def _pipeline(self) -> Any:
        if self._nlp is None:
            import spacy

            try:
                nlp = spacy.blank(self.language)
            except Exception as error:  # spaCy raises its own ImportError/KeyError variants
                raise ValueError(f"spaCy has no tokenizer rules for language {self.language!r}: {error}") from error
            nlp.add_pipe("sentencizer")
            self._nlp = nlp
        return self._nlp

    def segment(self, text: str) -> list[tuple[str, list[str]]]:
        """(sentence text, words) for each sentence of `text` that has a word; with
        `split_sentences` off, the whole text is one sentence."""
        if not self.split_sentences:
            words = [token.text for token in self._pipeline().make_doc(text) if not token.is_space]
            return [(text.strip(), words)] if words else []
        sentences = []
        for span in self._pipeline()(text).sents:
            words = [token.text for token in span if not token.is_space]
            if words:
                sentences.append((span.text.strip(), words))
        return sentences
