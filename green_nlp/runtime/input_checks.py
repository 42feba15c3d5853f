"""The checks every runtime entry point applies to its inputs before the model sees them: the same
as the CLI's and the predictors' JSON lines (`green_nlp.line_stream`), raised as `InputError`.

A text may not hold a NUL (it would be copied into FORM) or a lone surrogate (it is not UTF-8:
writing the output would fail after the model ran); a leading byte-order mark is dropped, as the
file readers drop it (else it stays inside the first word and changes its parse). Words may not be
empty or hold a tab, line break or NUL, and a UPOS list must have one tag per word.
"""

from collections.abc import Iterable, Mapping, Sequence
from numbers import Integral
from typing import Any, Optional

from green_nlp.line_stream import text_problem, word_list_problem
from green_nlp.runtime.errors import InputError, InputTypeError

BOM = "\ufeff"
# what a message calls None here: these checks see Python values, not JSON lines ("null")
PYTHON_NONE = "None"


def check_text(text: Any, empty: str) -> str:
    """`text` without a leading byte-order mark, or an InputError whose subject is `text`.
    `empty` says what an empty text cannot do, e.g. "is empty: nothing to parse"."""
    problem = text_problem(text, none=PYTHON_NONE)
    if problem:
        raise (InputTypeError if not isinstance(text, str) else InputError)("text", problem)
    text = text[1:] if text.startswith(BOM) else text
    if not text.strip():
        raise InputError("text", empty)
    return text


def check_tokens(words: Any, upos: Any = None) -> tuple[list[str], Optional[list[str]]]:
    """(words, tags) as lists, checked as the CLI checks `{"words": [...], "upos": [...]}`;
    a tuple is taken as a list."""
    words = _as_list("words", words)
    if not words:
        raise InputError("words", "is empty: no tokens to parse or tag")
    if upos is not None:
        upos = _as_list("upos", upos)
        if len(upos) != len(words):
            raise InputError("upos", f"has {len(upos)} tags for {len(words)} words")
    return words, upos


def _as_list(name: str, values: Any) -> list[str]:
    values = list(values) if isinstance(values, tuple) else values
    found = word_list_problem(values, none=PYTHON_NONE)
    if found is not None:
        index, problem = found
        if index is None:
            hint = " (a string would be read as its characters)" if isinstance(values, str) else ""
            raise InputTypeError(name, problem + hint)
        error = InputTypeError if not isinstance(values[index], str) else InputError
        raise error(f"{name}[{index}]", problem)
    return values


def check_many(name: str, items: Any) -> None:
    """An InputTypeError for what a *_many call cannot take as its inputs: one string (it would be
    read as its characters, each a text), a dict (its keys would be the texts), or no iterable at all."""
    if isinstance(items, (str, bytes)):
        raise InputTypeError(
            name, "is one string, not a list: each of its characters would be one input; give [...] for one"
        )
    if isinstance(items, Mapping):
        raise InputTypeError(name, "is a dict, not a list (its keys would be read as the inputs): give a list of them")
    if not isinstance(items, Iterable):  # None, a number: Python's own error named no argument
        kind = "None" if items is None else type(items).__name__
        raise InputTypeError(name, f"must be a list (or any iterable) of inputs, got {kind}")


# the arc scores grow with the square of a sentence's length and the exact tree search with its cube:
# a 4,096-word sentence takes about 70 MB and tens of seconds, a 100,000-word one would not finish
LONGEST_SENTENCE_LIMIT = 4096


def sentence_limit(value: Any) -> int:
    """`value` as a `max_sentence_length` set by hand (`nlp.max_sentence_length = ...`, the CLI's
    `--max-sentence-length`), or a TypeError / ValueError saying what it must be: None or a string
    ended in Python's own `'<=' not supported` at the first sentence, 10**7 let one line take all memory."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"max_sentence_length must be a whole number, got {value!r}")
    value = int(value)
    if not 1 <= value <= LONGEST_SENTENCE_LIMIT:
        raise ValueError(
            f"max_sentence_length must be between 1 and {LONGEST_SENTENCE_LIMIT} (memory grows with the square "
            f"of a sentence's length, time with its cube), got {value}"
        )
    return value


class SentenceLimited:
    """A runtime model's `max_sentence_length`: the folder's at load, checked by `sentence_limit`
    when set by hand; `length_advice`: what the message for a sentence over it advises, in its
    caller's terms (the CLI's options, the server's requests; None: `LENGTH_ADVICE`, the Python API's)."""

    _max_sentence_length: int
    length_advice: Optional[str] = None

    def check_length(self, words: Sequence[str], sentence: Optional[int] = None) -> None:
        """`check_sentence_length` against this model's limit, with its advice."""
        check_sentence_length(words, self._max_sentence_length, sentence, self.length_advice)

    @property
    def max_sentence_length(self) -> int:
        return self._max_sentence_length

    @max_sentence_length.setter
    def max_sentence_length(self, value: Any) -> None:
        self._max_sentence_length = sentence_limit(value)


# what to do about a sentence over the limit, by default (the Python API); `green-nlp parse` and the
# server say it in their own terms (`ParserRuntime.length_advice`)
LENGTH_ADVICE = "split it into shorter sentences, or raise the limit (nlp.max_sentence_length)"


def check_sentence_length(
    words: Sequence[str], limit: int, sentence: Optional[int] = None, advice: Optional[str] = None
) -> None:
    """An InputError for a sentence over the model's `limit` tokens: a pre-tokenized sentence, or
    sentence number `sentence` (1-based) of a text; `advice` says what to do (`LENGTH_ADVICE`)."""
    if len(words) <= limit:
        return
    if sentence is None:
        subject, what = "sentence", f"has {len(words):,} tokens"
    else:
        subject, what = "text", f"has a sentence of {len(words):,} tokens (sentence {sentence})"
    raise InputError(subject, f"{what}, over max_sentence_length={limit}; {advice or LENGTH_ADVICE}")
