"""Rule-based tokenization and sentence splitting with spaCy, needing no downloaded model."""
from typing import List, Tuple

import spacy


class SpacySegmenter:
    """`spacy.blank(language)` + the rule-based `sentencizer`: words per sentence of a text.

    Every predictor on raw text uses this so that tokenization is the same everywhere.
    """

    def __init__(self, language: str = "en") -> None:
        try:
            self.nlp = spacy.blank(language)
        except Exception as error:  # spaCy raises its own ImportError/KeyError variants
            raise ValueError(f"spaCy has no tokenizer rules for language {language!r}: {error}") from error
        self.nlp.add_pipe("sentencizer")

    def split(self, text: str) -> List[List[str]]:
        """Words of each sentence of `text`."""
        return [words for _, words in self.segment(text)]

    def segment(self, text: str) -> List[Tuple[str, List[str]]]:
        """(sentence text, words) for each sentence of `text`; whitespace tokens are dropped."""
        sentences = []
        for span in self.nlp(text).sents:
            words = [token.text for token in span if not token.is_space]
            if words:
                sentences.append((span.text.strip(), words))
        return sentences
