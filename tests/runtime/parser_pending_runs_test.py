"""The parser runs several graph calls back to back before decoding their trees (`_parse_grouped`):
the answers are those of decoding after every call, and the outputs held wait within both bounds."""

import pytest

from green_nlp.runtime import load
from green_nlp.runtime import parser as parser_module
from tests.conftest import FIXTURES, REPO_ROOT

LINES = (FIXTURES / "raw_text.txt").read_text(encoding="utf-8").splitlines() * 3


@pytest.fixture(scope="module")
def nlp():
    return load(REPO_ROOT / "pretrained" / "en-ewt-parser")


def _parse(nlp):
    return [doc.to_conllu() for doc in nlp.parse_many(LINES, batch_size=1, sort_window=64)]


def _held_at_each_decoding(nlp, monkeypatch):
    """(calls, bytes) waiting each time `_decode_runs` is called with something to decode."""
    held = []
    decode = nlp._decode_runs

    def spy(runs, parsed):
        if runs:
            held.append((len(runs), sum(array.nbytes for run in runs for array in run.results)))
        decode(runs, parsed)

    monkeypatch.setattr(nlp, "_decode_runs", spy)
    return held


def test_decoding_after_every_call_or_after_several_gives_the_same_bytes(nlp, monkeypatch):
    waiting = _parse(nlp)
    held = _held_at_each_decoding(nlp, monkeypatch)
    monkeypatch.setattr(parser_module, "GRAPH_RUNS_BEFORE_DECODING", 1)
    assert _parse(nlp) == waiting
    assert held and {calls for calls, _ in held} == {1}


def test_the_calls_waiting_stay_within_the_call_and_byte_bounds(nlp, monkeypatch):
    held = _held_at_each_decoding(nlp, monkeypatch)
    monkeypatch.setattr(parser_module, "GRAPH_RUNS_BEFORE_DECODING", 3)
    _parse(nlp)
    assert max(calls for calls, _ in held) == 3 and len(held) > 1  # one sentence a call, one window
    held.clear()
    monkeypatch.setattr(parser_module, "PENDING_OUTPUT_BYTES", 1)  # any call alone reaches it
    _parse(nlp)
    assert {calls for calls, _ in held} == {1}
