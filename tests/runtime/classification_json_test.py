"""`Classification.json_line`: the CLI's classify record, the bytes `line_stream.json_record` writes."""

import math

import pytest

from green_nlp import line_stream
from green_nlp.runtime.classifier import Classification

CASES = [
    Classification("positive", {"positive": 0.9234567, "negative": 0.0765433}, [1.25, -1.2345678901], 25),
    Classification("negative", {"positive": 1e-07, "negative": 0.9999999}, [-12.5, 3.0e20], 0),
    Classification('très "bon"\n', {'très "bon"\n': 0.5, "ü\\": 0.5}, [0.0, -0.0], 3),
    Classification("a", {"a": math.nan, "b": math.inf}, [-math.inf, 1.0], 1),
    Classification("a", {"a": 1, "b": 0}, [2, -1], 1),  # ints, as a caller may build one
    Classification("😀", {"😀": 0.25, "x": 0.75}, [5e-324, 1.7976931348623157e308], 7),
]


@pytest.mark.parametrize("result", CASES)
@pytest.mark.parametrize("line", [1, 42])
def test_the_line_is_the_bytes_json_record_writes(result, line):
    assert result.json_line(line) == line_stream.json_record(line, result.to_json())


def test_the_runtime_results_give_the_same_bytes(tmp_path):
    from green_nlp.runtime import load

    nlp = load("en-sst2-sentiment", precision="int8", threads=1)
    texts = ["a wonderful film", "zzzz qqqq", "dull , flat and far too long", "ÇA ÉTÉ un film naïf"]
    for number, result in enumerate(nlp.classify_many(texts, batch_size=2), start=1):
        assert result.json_line(number) == line_stream.json_record(number, result.to_json())
