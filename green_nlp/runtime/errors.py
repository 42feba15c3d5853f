"""Errors of the runtime: the model and the input do not fit (`InputKindError`), a folder that cannot
be loaded (`ModelFolderError`), one input the model cannot take (`InputError`, yielded in place as an
`InputFailure` by the *_many calls)."""

from dataclasses import dataclass
from typing import Any, Optional


class InputKindError(ValueError):
    """This model cannot read this kind of input at all (e.g. raw text for a parser trained with
    gold UPOS input): every line would fail the same way, so a file run whose first lines all fail
    so (`line_stream.FatalWatch`) stops with this message instead of skipping each line."""


class ModelFolderError(ValueError):
    """A model folder that must not or cannot be loaded as it is: a file path that leaves the folder,
    a file that differs from its recorded sha256, an empty or unparsable ONNX graph, a missing key.
    The message is one line that starts with the folder; the CLI and `green-nlp serve` print it and
    exit 2 (a ValueError, as every refusal of the runtime CLI)."""


# what a whole input is called in a single call's message; `InputError.at` replaces it by its place
WHOLE_INPUTS = ("text", "sentence")


class InputError(ValueError):
    """One input the model cannot take: an empty text, a NUL, a lone surrogate, a word holding a
    tab, a sentence over the length limit. The message is `subject problem`, the subject naming the
    input (`text`, `words[1]`, `upos`) or, in a *_many call, its 0-based place (`texts[2]`,
    `sentences[4]: words[1]`); `index` is that place (None in a single call). `alone` is the
    message as a single call gives it, for callers that name the place themselves (the CLI's line
    number, the server's slot)."""

    def __init__(self, subject: str, problem: str, index: Optional[int] = None) -> None:
        super().__init__(f"{subject} {problem}")
        self.subject, self.problem, self.index = subject, problem, index
        self.alone = str(self)

    def at(self, index: int, collection: str) -> "InputError":
        """The same error as item `index` of `collection` (a *_many call's argument, e.g. "texts")."""
        place = f"{collection}[{index}]"
        subject = place if self.subject in WHOLE_INPUTS else f"{place}: {self.subject}"
        placed = type(self)(subject, self.problem, index)
        placed.alone = self.alone
        return placed


class InputTypeError(InputError, TypeError):
    """An input of the wrong type (a number for a text, a string for a list of words)."""


@dataclass
class InputFailure:
    """What a *_many call yields in place of the result of an input it cannot take, so that one
    bad input does not end the stream or lose the results around it. Results have `error = None`;
    a failure's `to_json()` is the error record `{"error": message}` and its CoNLL(-U) form a
    comment block, as `green-nlp parse|tag|classify` write a failed line."""

    error: InputError

    @property
    def index(self) -> Optional[int]:
        return self.error.index

    def to_json(self) -> dict[str, Any]:
        return {"error": str(self.error)}

    def to_conllu(self) -> str:
        return f"# error = {' '.join(str(self.error).split())}\n\n"

    to_conll = to_conllu
