"""How `green-nlp serve` picks a reply's format (`serve.requests.choose_format`): the body's field,
then ?format=, then the Accept header by its preferences, then JSON."""

import pytest

from green_nlp.serve.requests import ApiError, accepted_formats, choose_format

PARSE_FORMATS = ("json", "conllu", "conll")


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("", []),
        ("*/*", []),
        ("text/x-conllu", ["conllu"]),
        ("Text/CoNLLU", ["conllu"]),
        ("application/json, text/x-conllu", ["json", "conllu"]),
        ("text/x-conllu;q=0.1, application/json", ["json", "conllu"]),
        ("text/x-conllu; q=0.5, text/x-conll; q=0.8", ["conll", "conllu"]),
        ("text/x-conllu;q=0, application/json;q=0.2", ["json"]),
        ("text/x-conllu;q=oops, text/x-conll", ["conll"]),
        ("text/x-conllu;level=1;q=0.9, text/x-conll;q=0.9", ["conllu", "conll"]),  # a tie keeps header order
    ],
)
def test_the_accept_header_is_read_by_its_preferences(accept, expected):
    assert accepted_formats(accept) == expected


def test_the_format_comes_from_the_body_then_the_query_then_accept_then_json():
    accept = "text/x-conllu;q=0.3, text/x-conll"
    assert choose_format("conllu", "conll", accept, PARSE_FORMATS) == "conllu"
    assert choose_format(None, "conllu", accept, PARSE_FORMATS) == "conllu"
    assert choose_format(None, None, accept, PARSE_FORMATS) == "conll"
    assert choose_format(None, None, "text/x-conllu;q=0.1, application/json", PARSE_FORMATS) == "json"
    assert choose_format(None, None, "text/html", PARSE_FORMATS) == "json"
    # a task that writes JSON only answers JSON whatever the header prefers
    assert choose_format(None, None, "text/x-conllu", ("json",)) == "json"


def test_a_format_the_task_does_not_write_is_refused_by_name():
    with pytest.raises(ApiError, match="not one this task writes: use one of json, conllu"):
        choose_format("xml", None, "", ("json", "conllu"))
