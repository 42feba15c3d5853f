"""What a POST /v1/{model}/{task} body may hold, checked before any text reaches a model.

Every refusal is an `ApiError` with a 4xx status and a message saying what to change, so no input
can make the server answer 5xx. One text inside "texts" that breaks a limit fails in its own slot.
"""

import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Optional


class ApiError(Exception):
    """A request the server refuses: `status` (4xx, or 503 when overloaded) and a message for the client."""

    def __init__(self, status: int, message: str, close: bool = False, retry_after: Optional[int] = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.close = close  # answer with `Connection: close` (the rest of the body is not worth reading)
        self.retry_after = retry_after  # seconds, for a `Retry-After` header (503: try again soon)


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 1_000_000
    max_text_chars: int = 10_000
    max_texts: int = 64
    body_timeout: float = 30.0  # seconds to receive a whole body once its headers are in


@dataclass
class TextsRequest:
    """A checked request: the texts to run (None where a text was refused) and how to answer."""

    texts: list[Optional[str]]
    single: bool
    output_format: str
    refused: dict[int, str] = field(default_factory=dict)  # slot -> why that text was not run

    @property
    def runnable(self) -> list[str]:
        return [text for text in self.texts if text is not None]


ALLOWED_FIELDS = ("text", "texts", "format")
ACCEPT_FORMATS = {
    "text/x-conllu": "conllu",
    "text/conllu": "conllu",
    "text/x-conll": "conll",
    "application/json": "json",
}


def decode_json(body: bytes) -> Any:
    if not body.strip():
        raise ApiError(400, 'empty request body: send JSON such as {"text": "..."} or {"texts": ["...", "..."]}')
    try:
        return json.loads(body.decode("utf-8-sig"))  # a byte-order mark (JSON readers may ignore one) is dropped
    except UnicodeDecodeError as error:
        raise ApiError(400, f"the body is not UTF-8 ({error.reason} at byte {error.start}): send UTF-8 JSON") from None
    except json.JSONDecodeError as error:
        raise ApiError(
            400,
            f"malformed JSON ({error.msg} at line {error.lineno} column {error.colno}): "
            'send {"text": "..."} or {"texts": ["...", "..."]}',
        ) from None
    except ValueError:  # (after JSONDecodeError, a subclass) Python's cap on the digits of an integer
        raise ApiError(
            400,
            f"the JSON holds a number of over {sys.get_int_max_str_digits():,} digits, which it cannot read: "
            'send {"text": "..."} or {"texts": ["...", "..."]}',
        ) from None
    except RecursionError:
        # Python's json parser recurses once per level; a request needs two ({"texts": [...]})
        raise ApiError(
            400,
            f"the JSON is nested too deeply (over about {sys.getrecursionlimit():,} levels): a request is "
            '{"text": "..."} or {"texts": ["...", "..."]}, two levels at most',
        ) from None


def clipped(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, marked with `...` where cut."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value: Any, limit: int = 80) -> str:
    """A value the client sent, as JSON and cut to `limit` characters: an error message echoes it
    without echoing a megabyte back."""
    text = (
        json.dumps(value, ensure_ascii=False)
        if isinstance(value, (str, int, float, bool, type(None)))
        else _json_type(value)
    )
    return clipped(text, limit)


def text_problem(text: Any, limits: Limits, where: str) -> Optional[str]:
    """Why `text` cannot be run, or None."""
    if not isinstance(text, str):
        return f"{where} must be a string, got {_json_type(text)}"
    if len(text) > limits.max_text_chars:
        return (
            f"{where} has {len(text):,} characters, over the limit of {limits.max_text_chars:,}: "
            "split it into shorter texts"
        )
    unwritable = unwritable_character(text)
    if unwritable:
        return f"{where} holds {unwritable}: remove it, or send the text as valid UTF-8"
    return None


def unwritable_character(text: str) -> Optional[str]:
    """A NUL (it would be copied into the output words, as the file paths refuse it) or a lone
    surrogate (a JSON escape such as \\ud800 decodes to one; it is not UTF-8), with its 1-based
    position in the text as sent, or None."""
    found = _UNWRITABLE.search(text)
    if found is None:
        return None
    char, position = found.group(), found.start() + 1
    if char == "\x00":
        return f"a NUL character at position {position}"
    return f"a lone surrogate (U+{ord(char):04X}) at position {position}"


_UNWRITABLE = re.compile("[\x00\ud800-\udfff]")


def read_request(
    body: bytes, limits: Limits, formats: Sequence[str], query_format: Optional[str] = None, accept: str = ""
) -> TextsRequest:
    """A checked request from a raw body; `formats` are the task's output formats, the first the default."""
    payload = decode_json(body)
    if not isinstance(payload, dict):
        raise ApiError(400, f'the body must be a JSON object such as {{"text": "..."}}, got {_json_type(payload)}')
    unknown = sorted(set(payload) - set(ALLOWED_FIELDS))
    if unknown:
        named = ", ".join(shown(field) for field in unknown[:5]) + (
            f" and {len(unknown) - 5:,} more" if len(unknown) > 5 else ""
        )
        raise ApiError(
            400,
            f'unknown field(s) {named}: a request has "text" (one string) or "texts" (a list of strings), '
            'and optionally "format"',
        )
    if ("text" in payload) == ("texts" in payload):
        raise ApiError(400, 'give exactly one of "text" (one string) or "texts" (a list of strings)')
    output_format = choose_format(payload.get("format"), query_format, accept, formats)
    if "text" in payload:
        problem = text_problem(payload["text"], limits, '"text"')
        if problem:
            raise ApiError(422 if isinstance(payload["text"], str) else 400, problem)
        return TextsRequest([payload["text"]], True, output_format)
    texts = payload["texts"]
    if not isinstance(texts, list):
        raise ApiError(400, f'"texts" must be a list of strings, got {_json_type(texts)}')
    if len(texts) > limits.max_texts:
        raise ApiError(
            413,
            f'"texts" has {len(texts)} texts, over the limit of {limits.max_texts} per request: '
            "send them in several requests",
        )
    request = TextsRequest([], False, output_format)
    for slot, text in enumerate(texts):
        problem = text_problem(text, limits, f'"texts"[{slot}]')
        request.texts.append(None if problem else text)
        if problem:
            request.refused[slot] = problem
    return request


def choose_format(given: Any, query_format: Optional[str], accept: str, formats: Sequence[str]) -> str:
    """The output format: the body's "format", else ?format=, else the Accept header's most preferred
    format this task writes (CoNLL-U, CoNLL or JSON), else JSON."""
    chosen = given if given is not None else query_format
    if chosen is None:
        chosen = next((name for name in accepted_formats(accept) if name in formats), formats[0])
    if chosen not in formats:
        raise ApiError(400, f"format {shown(chosen)} is not one this task writes: use one of {', '.join(formats)}")
    return chosen


def accepted_formats(accept: str) -> list[str]:
    """The formats an Accept header names, most preferred first: by their `q` (1 when absent), ties in
    the header's order; `q=0` (not acceptable) and unknown media types left out. Hand-written: the
    standard library parses no Accept header, and this server needs only the media types' names."""
    weighted: list[tuple[float, int, str]] = []
    for place, part in enumerate(accept.split(",")):
        media, *parameters = [piece.strip() for piece in part.split(";")]
        name = ACCEPT_FORMATS.get(media.lower())
        if name is None:
            continue
        quality = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0  # a q the client wrote wrong: not taken as a preference
        if quality > 0:
            weighted.append((-quality, place, name))
    return [name for _, _, name in sorted(weighted)]


def _json_type(value: Any) -> str:
    names = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        type(None): "null",
        int: "a number",
        float: "a number",
    }
    return names.get(type(value), type(value).__name__)
