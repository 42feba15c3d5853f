"""Micro-batching: texts that arrive together go to the model in one call.

A model on two CPU cores serves more texts per second in one call of 32 than in 32 calls of one
(less Python and onnxruntime overhead per text), so a queue per model collects the texts of
concurrent requests. A batch holds at most `max_batch` texts. How long it waits for company adapts
to the traffic: the last model call's size says how many texts are likely to come back soon (each
answered client sends its next request), so the queue waits at most `max_wait` for that many and no
longer; after a call of one text (a lone client) the next text goes to the model at once, so
batching costs a lone client no latency. Texts that queued while the model was busy go in the next
call at once. Model calls run in one worker thread per model so the event loop keeps accepting
requests.

Written here rather than taken from a library: the serving frameworks that batch (Ray Serve,
BentoML, Triton) bring their own process model and many dependencies; this is one small class.
"""

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Optional

logger = logging.getLogger("green_nlp.serve")


class Overloaded(Exception):
    """The queue holds too many texts already: the client should retry later (503)."""


@dataclass
class Outcome:
    """One text's answer: a runtime result, or why the model could not take this text."""

    result: Any = None
    error: Optional[str] = None
    input_error: bool = True  # False: the model failed for a reason other than the text (a 500)


@dataclass
class _Item:
    text: str
    future: "asyncio.Future[Outcome]"
    enqueued: float


@dataclass
class BatchStats:
    """What the batcher did, for GET /health: batch sizes show whether requests were grouped."""

    requests: int = 0
    texts: int = 0
    batches: int = 0
    failed_texts: int = 0
    sizes: Counter = field(default_factory=Counter)

    def record(self, size: int, failed: int) -> None:
        self.batches += 1
        self.sizes[size] += 1
        self.failed_texts += failed

    def to_json(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "texts": self.texts,
            "batches": self.batches,
            "failed_texts": self.failed_texts,
            "largest_batch": max(self.sizes, default=0),
            "mean_batch": round(sum(k * v for k, v in self.sizes.items()) / self.batches, 2) if self.batches else 0,
            "batch_sizes": {str(size): count for size, count in sorted(self.sizes.items())},
        }


def _outcome(result: Any) -> Outcome:
    """A result, or the runtime's InputFailure in place of a text it cannot take (its error as a
    single call words it: the response names the slot)."""
    error = getattr(result, "error", None)
    return Outcome(result) if error is None else Outcome(error=str(getattr(error, "alone", error)))


def predict_each(predict: Callable[[list[str]], list[Any]], texts: list[str]) -> list[Outcome]:
    """All texts in one call; when that fails, each text alone, so one bad text fails by itself."""
    try:
        results = predict(texts)
        if len(results) != len(texts):
            raise RuntimeError(f"the model returned {len(results)} results for {len(texts)} texts")
        return [_outcome(result) for result in results]
    except Exception as error:  # sorted out text by text below
        if len(texts) > 1:
            return [outcome for text in texts for outcome in predict_each(predict, [text])]
        if isinstance(error, (ValueError, TypeError)):  # the runtime's way of refusing an input
            return [Outcome(error=str(error))]
        logger.exception("model call failed")
        return [Outcome(error=f"the model failed: {type(error).__name__}", input_error=False)]


class MicroBatcher:
    """Groups the texts of concurrent requests into model calls; each caller gets its own answers."""

    def __init__(
        self,
        predict: Callable[[list[str]], list[Any]],
        executor: Executor,
        max_batch: int = 32,
        max_wait: float = 0.005,
        max_queue: int = 4096,
    ) -> None:
        if max_batch < 1 or max_wait < 0 or max_queue < 1:
            raise ValueError("max_batch and max_queue must be positive and max_wait not negative")
        self.predict, self.executor = predict, executor
        self.max_batch, self.max_wait, self.max_queue = max_batch, max_wait, max_queue
        self.stats = BatchStats()
        self._pending: deque[_Item] = deque()
        self._arrived = asyncio.Event()
        self._worker: Optional[asyncio.Task] = None
        self._expected = 1  # texts likely to arrive together: the last call's size, see the module docstring

    @property
    def queued(self) -> int:
        return len(self._pending)

    def start(self) -> None:
        self._worker = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Answer what is queued, then stop the worker (the server drains requests before this)."""
        while self._pending:
            await asyncio.sleep(0.01)
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)

    async def submit(self, texts: list[str]) -> list[Outcome]:
        """The outcomes of `texts`, in order, computed with whatever else is queued."""
        if len(self._pending) + len(texts) > self.max_queue:
            raise Overloaded(f"{len(self._pending)} texts are queued already (limit {self.max_queue}); retry shortly")
        loop = asyncio.get_running_loop()
        now = loop.time()
        items = [_Item(text, loop.create_future(), now) for text in texts]
        self._pending.extend(items)
        self._arrived.set()
        self.stats.requests += 1
        self.stats.texts += len(texts)
        return [await item.future for item in items]

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            while not self._pending:
                self._arrived.clear()
                await self._arrived.wait()
            deadline = self._pending[0].enqueued + self.max_wait
            wanted = min(self.max_batch, self._expected)
            while len(self._pending) < wanted and (remaining := deadline - loop.time()) > 0:
                self._arrived.clear()
                try:
                    await asyncio.wait_for(self._arrived.wait(), remaining)
                except TimeoutError:
                    break
            batch = [self._pending.popleft() for _ in range(min(self.max_batch, len(self._pending)))]
            self._expected = len(batch)
            try:
                outcomes = await loop.run_in_executor(
                    self.executor, predict_each, self.predict, [item.text for item in batch]
                )
            except RuntimeError as error:  # the executor is shut down: answer rather than hang
                outcomes = [Outcome(error=f"the server is stopping: {error}", input_error=False)] * len(batch)
            self.stats.record(len(batch), sum(outcome.error is not None for outcome in outcomes))
            for item, outcome in zip(batch, outcomes):
                if not item.future.done():  # a caller that went away leaves a cancelled future
                    item.future.set_result(outcome)
