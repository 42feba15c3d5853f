"""Rule-based tokenization and sentence splitting with spaCy, needing no downloaded model."""

from typing import Any, Optional

from green_nlp.runtime.parser_segmenter import TextSegmenter
from green_nlp.runtime.treebank_tokenization import TokenizationRules


class SpacySegmenter(TextSegmenter):
    """`spacy.blank(language)` + the rule-based `sentencizer`: words per sentence of a text.

    Every predictor on raw text uses this, and the ONNX runtime uses its base class, so that
    tokenization is the same everywhere. Built eagerly: a language spaCy lacks fails when the
    predictor is made, not on the first line.
    """

    def __init__(self, language: str = "en", rules: Optional[TokenizationRules] = None) -> None:
        super().__init__(language, rules=rules)
        self._pipeline()

    @property
    def nlp(self) -> Any:
        return self._pipeline()

    def split(self, text: str) -> list[list[str]]:
        """Words of each sentence of `text`."""
        return [words for _, words in self.segment(text)]
