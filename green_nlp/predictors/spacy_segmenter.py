"""Rule-based tokenization and sentence splitting with spaCy, needing no downloaded model."""
from typing import List

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
        doc = self.nlp(text)
        return [[token.text for token in sentence if not token.is_space] for sentence in doc.sents
                if any(not token.is_space for token in sentence)]
