"""Micro-batching: concurrent requests share model calls and each caller gets its own answers."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from green_nlp.serve.batcher import MicroBatcher
from tests.serve.conftest import PARSER

NOUNS = [
    "river",
    "teacher",
    "garden",
    "engine",
    "letter",
    "mountain",
    "window",
    "doctor",
    "market",
    "forest",
    "bridge",
    "violin",
    "harbor",
    "kitchen",
    "planet",
    "castle",
    "island",
    "station",
    "camera",
    "lantern",
]


def parser_stats(client):
    return client.get("/health").json()["models"][PARSER]["parse"]


def test_concurrent_requests_are_batched_and_each_gets_its_own_parse(client, parser):
    texts = [f"The {noun} near sentence {i} was quiet." for i, noun in enumerate(NOUNS)]
    before = parser_stats(client)
    with ThreadPoolExecutor(len(texts)) as pool:
        responses = list(pool.map(lambda text: client.post(f"/v1/{PARSER}/parse", json={"text": text}), texts))
    after = parser_stats(client)
    same = total = 0
    for text, response in zip(texts, responses):
        assert response.status_code == 200
        (got,), (alone,) = response.json()["sentences"], parser.parse(text).to_json()["sentences"]
        assert got["comments"] == {"text": text} and got["words"] == alone["words"]  # its own text's parse
        pairs = list(zip(got["heads"], got["deprels"], alone["heads"], alone["deprels"]))
        same += sum(head == head_alone and rel == rel_alone for head, rel, head_alone, rel_alone in pairs)
        total += len(pairs)
    # int8 graphs quantize activations over the whole batch, so a word's parse may change with the
    # texts that share its model call; rarely (docs/serving.md, benchmarks/results/serve_load.md)
    assert same / total > 0.9
    batches = after["batches"] - before["batches"]
    assert after["texts"] - before["texts"] == len(texts)
    assert batches < len(texts), f"{len(texts)} concurrent texts took {batches} model calls: no batching"
    assert after["largest_batch"] > 1


def test_concurrent_lists_come_back_whole_and_in_order(client, parser):
    lists = [[f"The {noun} is number {i}." for noun in NOUNS[:size]] for i, size in enumerate((1, 5, 3, 8, 2, 7))]
    with ThreadPoolExecutor(len(lists)) as pool:
        bodies = list(pool.map(lambda texts: client.post(f"/v1/{PARSER}/parse", json={"texts": texts}).json(), lists))
    for texts, body in zip(lists, bodies):
        assert body["results"] == [doc.to_json() for doc in parser.parse_many(texts)]


def run_batcher(texts_per_caller, predict, **options):
    """Callers submitting at once to one MicroBatcher; returns their answers and the batch sizes seen."""
    sizes = []

    def recording(texts):
        sizes.append(len(texts))
        return predict(texts)

    async def main():
        with ThreadPoolExecutor(1) as executor:
            batcher = MicroBatcher(recording, executor, **options)
            batcher.start()
            answers = await asyncio.gather(*(batcher.submit(texts) for texts in texts_per_caller))
            await batcher.stop()
        return answers

    return asyncio.run(main()), sizes


def shout(texts):
    if any(text == "bad" for text in texts):
        raise ValueError("this model refuses 'bad'")
    return [text.upper() for text in texts]


def test_batcher_respects_max_batch_and_order():
    callers = [[f"{c}-{i}" for i in range(n)] for c, n in enumerate((3, 1, 6, 2, 5))]
    answers, sizes = run_batcher(callers, shout, max_batch=4, max_wait=0.05)
    assert [[outcome.result for outcome in answer] for answer in answers] == [[t.upper() for t in c] for c in callers]
    assert max(sizes) == 4 and sum(sizes) == 17 and len(sizes) < 17


@pytest.mark.parametrize("max_batch", [1, 8])
def test_a_refused_text_fails_alone(max_batch):
    answers, _ = run_batcher([["one", "bad", "two"], ["three"]], shout, max_batch=max_batch, max_wait=0.01)
    (one, bad, two), (three,) = answers
    assert (one.result, two.result, three.result) == ("ONE", "TWO", "THREE")
    assert bad.result is None and bad.input_error and "refuses 'bad'" in bad.error


def test_waiting_adapts_to_how_many_texts_came_together():
    """A lone text is not held for `max_wait`; after a call of three, staggered texts wait for each other."""
    sizes = []

    def recording(texts):
        sizes.append(len(texts))
        return shout(texts)

    async def staggered(batcher, count, gap):
        async def one(i):
            await asyncio.sleep(gap * i)
            return await batcher.submit([f"late-{i}"])

        return await asyncio.gather(*(one(i) for i in range(count)))

    async def main():
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(1) as executor:
            batcher = MicroBatcher(recording, executor, max_batch=8, max_wait=5.0)
            batcher.start()
            started = loop.time()
            await batcher.submit(["alone"])
            lone_seconds = loop.time() - started
            await asyncio.gather(*(batcher.submit([f"together-{i}"]) for i in range(3)))
            late = await staggered(batcher, 3, 0.02)
            await batcher.stop()
        return lone_seconds, late

    lone_seconds, late = asyncio.run(main())
    assert lone_seconds < 2.5  # far below max_wait: nothing suggested company was coming
    assert sizes == [1, 3, 3]  # the three staggered texts waited for each other, as the call before had three
    assert [answer[0].result for answer in late] == ["LATE-0", "LATE-1", "LATE-2"]
