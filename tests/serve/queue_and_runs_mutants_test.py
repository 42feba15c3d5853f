"""Pinned limits of the server's batching: the queue limit counts the incoming request's texts, and
a length run's padding cost is the run's size times the length step (hand-computed cases)."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from green_nlp.serve.batcher import MicroBatcher, Overloaded, predict_each
from green_nlp.serve.parser_batching import length_runs

# a request the batcher wrongly queued would wait for a worker not started yet: wait_for bounds it


def _upper(texts):
    return [text.upper() for text in texts]


def test_a_request_larger_than_the_queue_limit_is_refused_even_on_an_empty_queue():
    async def scenario():
        with ThreadPoolExecutor(1) as executor:
            batcher = MicroBatcher(_upper, executor, max_batch=8, max_wait=0.0, max_queue=3)
            with pytest.raises(Overloaded, match="limit 3"):
                await asyncio.wait_for(batcher.submit(["a", "b", "c", "d"]), 5)  # 0 queued + 4 > 3
            assert batcher.queued == 0  # nothing of the refused request was queued
            batcher.start()
            try:
                outcomes = await batcher.submit(["a", "b", "c"])  # 0 + 3 <= 3: taken
            finally:
                await batcher.stop()
            return [outcome.result for outcome in outcomes]

    assert asyncio.run(scenario()) == ["A", "B", "C"]


def test_queued_texts_plus_the_request_are_held_against_the_limit():
    async def scenario():
        with ThreadPoolExecutor(1) as executor:
            batcher = MicroBatcher(_upper, executor, max_batch=8, max_wait=0.0, max_queue=3)
            waiting = asyncio.ensure_future(batcher.submit(["a", "b"]))  # no worker yet: stays queued
            await asyncio.sleep(0)
            assert batcher.queued == 2
            with pytest.raises(Overloaded, match="2 texts are queued"):
                await asyncio.wait_for(batcher.submit(["c", "d"]), 5)  # 2 + 2 > 3
            batcher.start()
            try:
                second = await batcher.submit(["c"])  # 2 + 1 <= 3
                first = await waiting
            finally:
                await batcher.stop()
            return [o.result for o in first], [o.result for o in second]

    assert asyncio.run(scenario()) == (["A", "B"], ["C"])


def test_padding_budget_is_the_runs_size_times_the_length_step():
    # five 1-word sentences, then 5 words: padding the five to 5 costs 5 * 4 = 20 > 16, a new run
    assert length_runs([1, 1, 1, 1, 1, 5], budget=16) == [[0, 1, 2, 3, 4], [5]]
    # four of them: 4 * 4 = 16 <= 16, one run
    assert length_runs([1, 1, 1, 1, 5], budget=16) == [[0, 1, 2, 3, 4]]
    # unsorted input: runs hold indices in ascending length; 2 * (9 - 2) = 14 <= 16, then 3 * 1 = 3
    assert length_runs([9, 2, 10, 2], budget=16) == [[1, 3, 0, 2]]
    assert length_runs([9, 2, 10, 2], budget=13) == [[1, 3], [0, 2]]


def _refuse_numbers(texts):
    for text in texts:
        if text.isdigit():
            raise TypeError(f"cannot take {text!r}")
        if text == "boom":
            raise RuntimeError("the model broke")
    return [text.upper() for text in texts]


def test_a_text_the_runtime_refuses_fails_alone_as_an_input_error():
    outcomes = predict_each(_refuse_numbers, ["a", "42", "boom", "b"])
    assert [(o.result, o.error, o.input_error) for o in outcomes] == [
        ("A", None, True),
        (None, "cannot take '42'", True),  # TypeError: the runtime refusing this text (a 4xx)
        (None, "the model failed: RuntimeError", False),  # anything else: the server's fault (a 500)
        ("B", None, True),
    ]
