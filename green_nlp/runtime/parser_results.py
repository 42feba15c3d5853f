"""What the runtime parser returns: plain dataclasses that print as the predictor's output."""

from dataclasses import dataclass, field
from typing import Any, ClassVar, Optional

from green_nlp.runtime.conllu_output import sentence_to_conllu


@dataclass
class ParsedSentence:
    """One dependency tree: `heads[i]` is the 1-based head of word i+1 (0 = ROOT)."""

    # results carry `error = None`; a *_many call's `InputFailure` in their place has the error
    error: ClassVar[None] = None

    words: list[str]
    heads: list[int]
    deprels: list[str]
    upos: Optional[list[str]] = None
    text: Optional[str] = None
    # from a model with the extra heads (else None, and the CoNLL-U columns stay "_")
    lemmas: Optional[list[str]] = None
    xpos: Optional[list[str]] = None
    feats: Optional[list[str]] = None
    # multiword tokens over the words, as CoNLL-U columns (`conllu_output.multiword_columns`)
    multiword_tokens: Optional[list[list[str]]] = None

    def to_json(self) -> dict[str, Any]:
        """The `green_dependency_parser` predictor's sentence record (its own copies of the lists)."""
        record = self._fields()
        for key, value in record.items():
            if key == "multiword_tokens":
                record[key] = [list(columns) for columns in value]
            elif key == "comments":
                record[key] = dict(value)
            elif value:
                record[key] = list(value)
        return record

    def _fields(self) -> dict[str, Any]:
        """The record's keys in the predictor's order, the sentence's own lists in it: what `to_json`
        copies, and `to_conllu` only reads (so it copies nothing)."""
        record: dict[str, Any] = {"words": self.words, "upos": self.upos, "heads": self.heads, "deprels": self.deprels}
        for key in ("lemmas", "xpos", "feats"):  # the predictor's key order
            values = getattr(self, key)
            if values is not None:
                record[key] = values
        if self.multiword_tokens:
            record["multiword_tokens"] = self.multiword_tokens
        if self.text:
            record["comments"] = {"text": self.text}
        return record

    def to_conllu(self) -> str:
        return sentence_to_conllu(self._fields())


@dataclass
class ParsedDoc:
    """All sentences of one input (a line of text, or one pre-tokenized sentence)."""

    # results carry `error = None`; a *_many call's `InputFailure` in their place has the error
    error: ClassVar[None] = None

    sentences: list[ParsedSentence] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The predictor's JSON-lines record for one input line: {"sentences": [...]}."""
        return {"sentences": [sentence.to_json() for sentence in self.sentences]}

    def to_conllu(self) -> str:
        """The predictor's CoNLL-U for one input line: one block per sentence ("" for none)."""
        return "".join(sentence.to_conllu() for sentence in self.sentences)

    def __iter__(self):
        return iter(self.sentences)

    def __len__(self) -> int:
        return len(self.sentences)
