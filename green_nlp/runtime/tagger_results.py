"""What the runtime tagger returns: a plain dataclass that prints as the `green_sentence_tagger`
predictor's record (JSON) or as CoNLL-style columns."""

from dataclasses import dataclass, field
from typing import Any, ClassVar, Optional

Span = tuple[str, int, int]  # (label, first word, last word), inclusive


def bioes_spans(tags: list[str]) -> list[Span]:
    """Typed spans of a BIOES sequence, read as `green_nlp.dataset_readers.conll_tagging.bioes_to_spans`
    reads them (lenient: an I-/E- that continues no span of its type starts one). Repeated here
    because that module imports allennlp; tests/runtime/tagger_results_test.py checks the two agree."""
    spans: list[Span] = []
    label: Optional[str] = None  # the type of the span still open
    start = 0
    for i, tag in enumerate(tags):
        prefix, _, kind = tag.partition("-")
        if prefix in ("I", "E") and kind == label:  # continues the open span
            if prefix == "E":
                spans.append((kind, start, i))
                label = None
            continue
        if label is not None:
            spans.append((label, start, i - 1))
            label = None
        if prefix in ("B", "I"):
            label, start = kind, i
        elif prefix in ("S", "E"):
            spans.append((kind, i, i))
    if label is not None:
        spans.append((label, start, len(tags) - 1))
    return spans


@dataclass
class TaggedText:
    """One input's words and BIOES tags over all its sentences; `sentence_starts[k]` is the
    index of sentence k's first word."""

    # results carry `error = None`; a *_many call's `InputFailure` in their place has the error
    error: ClassVar[None] = None

    words: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    sentence_starts: list[int] = field(default_factory=list)

    def add_sentence(self, words: list[str], tags: list[str]) -> None:
        self.sentence_starts.append(len(self.words))
        self.words.extend(words)
        self.tags.extend(tags)

    @property
    def spans(self) -> list[dict[str, Any]]:
        """Typed spans within each sentence, `end` exclusive (as spaCy's `Span`)."""
        found = []
        for start, end in zip(self.sentence_starts, self.sentence_starts[1:] + [len(self.words)]):
            for label, first, last in bioes_spans(self.tags[start:end]):
                found.append(
                    {
                        "start": start + first,
                        "end": start + last + 1,
                        "label": label,
                        "text": " ".join(self.words[start + first : start + last + 1]),
                    }
                )
        return found

    def to_json(self) -> dict[str, Any]:
        """The predictor's JSON-lines record: words, tags, sentence_starts and spans."""
        return {
            "words": list(self.words),
            "tags": list(self.tags),
            "sentence_starts": list(self.sentence_starts),
            "spans": self.spans,
        }

    def to_conll(self) -> str:
        """One `word<TAB>tag` line per word, a blank line after each sentence but the last
        (`green-nlp tag --format conll` closes each input with one more)."""
        lines = []
        bounds = self.sentence_starts[1:] + [len(self.words)]
        for k, (start, end) in enumerate(zip(self.sentence_starts, bounds)):
            if k:
                lines.append("")
            lines.extend(f"{word}\t{tag}" for word, tag in zip(self.words[start:end], self.tags[start:end]))
        return "".join(line + "\n" for line in lines)
