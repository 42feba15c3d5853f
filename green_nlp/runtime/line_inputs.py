"""What one input line of `green-nlp parse|tag` holds: raw text, or words (with UPOS tags) given as
a JSON line `{"words": [...], "upos": [...]}` - the only way into a parser trained with gold UPOS,
and the way to keep a tokenization of one's own. Both kinds may share a file."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from green_nlp.line_stream import json_object, json_or_text

TEXT_FIELDS = ("text", "sentence")  # a JSON line's fields that hold raw text, as `json_or_text` reads them


@dataclass(frozen=True)
class Tokens:
    """A pre-tokenized sentence from a JSON line."""

    words: list[str]
    upos: Optional[list[str]] = None


def looks_like_conllu(line: str) -> bool:
    """A CoNLL-U word row (ID, then 9 more tab-separated columns) or one of its sentence comments."""
    fields = line.split("\t")
    if len(fields) == 10 and fields[0].replace("-", "").replace(".", "").isdigit():
        return True
    return line.startswith(("# sent_id = ", "# text = ", "# newdoc", "# newpar"))


CONLLU_REFUSAL = (
    "this looks like CoNLL-U, which green-nlp reads as raw text or JSON lines only: give its "
    'sentences as {"words": [...], "upos": [...]} lines, or use allennlp predict --use-dataset-reader'
)
# a classifier (green-nlp classify, allennlp predict) or a tagger under allennlp predict has no CoNLL-U
# reader: each row would be classified or tagged as a text
CONLLU_TEXTS_REFUSAL = (
    "this looks like CoNLL-U, but the model reads one text per line (plain text or a JSON line): "
    "give each sentence's text (its `# text =` comment) on a line of its own"
)


def starts_as_conllu(first_lines: Iterable[str]) -> bool:
    """Whether a file's first non-blank line is a CoNLL-U row or sentence comment: such a file is
    refused whole (every line would fail), a stray row inside a text file fails alone."""
    for line in first_lines:
        if line.strip():
            return looks_like_conllu(line)
    return False


def file_starts_as_conllu(path: Path) -> bool:
    """`starts_as_conllu` over a file's first 20 lines (compressed files read as `line_stream` reads them)."""
    from itertools import islice

    from green_nlp.line_stream import decode_line, read_lines

    return starts_as_conllu(decode_line(raw)[0] or "" for _, raw in islice(read_lines(path), 20))


def text_or_tokens(line: str) -> Union[str, Tokens]:
    """A line as text (plain, or JSON with "text"/"sentence"), or as `Tokens` (JSON with "words").
    A CoNLL-U row is refused: parsed as prose it would give a tree of its column values."""
    if looks_like_conllu(line):
        raise ValueError(CONLLU_REFUSAL)
    record = json_object(line)  # checks each field's type; None for plain text
    if record is not None and not {"words", *TEXT_FIELDS} & record.keys():
        raise ValueError(f"JSON line needs one of the fields {', '.join(map(repr, TEXT_FIELDS))} or 'words'")
    if record is None or "words" not in record:
        return json_or_text(line, TEXT_FIELDS)
    words, upos = record["words"], record.get("upos")
    if not words:
        raise ValueError("field 'words' is empty")
    if upos is not None and len(upos) != len(words):
        raise ValueError(f"field 'upos' has {len(upos)} tags for {len(words)} words")
    return Tokens(list(words), None if upos is None else list(upos))


def predict_in_order(
    inputs: Sequence[Union[str, Tokens]],
    on_texts: Callable[[list[str]], Sequence[Any]],
    on_tokens: Callable[[list[Tokens]], Sequence[Any]],
) -> list[Any]:
    """One result per input, in input order: the texts go to `on_texts` together, the tokenized
    sentences to `on_tokens` together (each call batches inside)."""
    text_rows = [i for i, item in enumerate(inputs) if isinstance(item, str)]
    token_rows = [i for i, item in enumerate(inputs) if not isinstance(item, str)]
    results: list[Any] = [None] * len(inputs)
    if text_rows:
        for row, result in zip(text_rows, on_texts([inputs[i] for i in text_rows])):  # type: ignore[misc]
            results[row] = result
    if token_rows:
        for row, result in zip(token_rows, on_tokens([inputs[i] for i in token_rows])):  # type: ignore[misc]
            results[row] = result
    return results
