"""`--ray` for line streams (`allennlp green-predict`, `green-nlp parse|tag|classify`).

The driver reads the file (line_stream's `read_lines`: raw bytes, physical line numbers), sends
chunks of lines to the actors to be read into model inputs, forms batches of exactly `batch_size`
readable lines as the one-process `LineStreamer` does (so every model call sees the same batch and
the outputs are byte-identical), has the actors predict them, and writes outputs and skipped-line
records in input order. All reading, predicting, dumping and `file:line: why` formatting is
line_stream's own code: the actors run `LineStreamer` on each piece, the driver replays the skipped
lines through `LineStreamer._skip`.

Not Ray Data: its readers decode text (a line that is not UTF-8 would end the read, not be
reported alone) and lose physical line numbers, and one-process batching needs the driver between
reading and predicting; an actor pool with ordered calls is what remains of it, and Ray's own.
"""

import io
import itertools
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar, Optional

from green_nlp.distributed_ray.options import RayOptions, require_ray
from green_nlp.distributed_ray.pool import ActorPool, connected, crash_point, wait_until_loaded
from green_nlp.line_stream import (
    Entry,
    FatalWatch,
    LineModel,
    LineStreamer,
    StreamReport,
    count_lines,
    read_lines,
    shard_bounds,
)

logger = logging.getLogger(__name__)

READ_BATCHES = 16  # lines sent per read call, in model batches: few calls, and reads run beside predictions
READS_AHEAD = 2


@dataclass
class BatchResult:
    """What one model batch gave: its dumped outputs, how many, and the lines it skipped."""

    text: str
    predicted: int
    blank: int
    warnings: Counter
    skipped: list[tuple[int, str]] = field(default_factory=list)
    fatal: Optional[str] = None  # every readable line failed with a fatal error (the driver's FatalWatch decides)
    fatal_type: Optional[type] = None
    tallies: Counter = field(default_factory=Counter)
    inputs: int = 0  # readable lines in the batch


def _skipped(errors: io.StringIO) -> list[tuple[int, str]]:
    """(line, why) of the records line_stream wrote, to replay them in the driver."""
    records = [json.loads(line) for line in errors.getvalue().splitlines()]
    return [(record["line"], record["error"]) for record in records]


class LineWorker:
    """Holds one model (built once by `make_model`); reads lines and predicts batches with
    line_stream's `LineStreamer`. Reading runs in its own thread, beside a prediction.
    A Ray actor class once `ActorPool` makes it one (`pool.remote_class`, with these options)."""

    ray_options: ClassVar[dict[str, Any]] = {"concurrency_groups": {"read": 1, "model": 1}}
    ray_methods: ClassVar[dict[str, dict[str, Any]]] = {
        "read": {"concurrency_group": "read"},
        "predict": {"concurrency_group": "model"},
    }

    def __init__(self, make_model: Callable[[], LineModel], batch_size: int) -> None:
        logging.getLogger("green_nlp.line_stream").setLevel(logging.ERROR)  # the driver reports skipped lines
        self._streamer = LineStreamer(make_model(), batch_size)

    def ready(self) -> bool:
        return True

    def read(self, path: str, records: list[tuple[int, bytes]]) -> list[Entry]:
        return [self._streamer.read_entry(number, raw) for number, raw in records]

    def predict(self, path: str, batch: list[Entry]) -> BatchResult:
        crash_point()
        report, output, errors = StreamReport(), io.StringIO(), io.StringIO()
        # the per-line records, and whether every line failed with a fatal error: the driver decides
        fatal = self._streamer._predict(Path(path), batch, output, report, errors)
        return BatchResult(
            output.getvalue(),
            report.predicted,
            report.blank,
            report.warnings,
            _skipped(errors),
            None if fatal is None else str(fatal),
            None if fatal is None else type(fatal),
            report.tallies,
            sum(kind == "input" for _, kind, _ in batch),
        )


def _events(
    pool: ActorPool, path: Path, records: Iterator[tuple[int, bytes]], batch_size: int
) -> Iterator[tuple[str, Any]]:
    """What happens, in the one-process order: ("read", lines), and ("batch", ObjectRef of a
    BatchResult) once `batch_size` readable lines are together, with the blank and failed lines met
    among them (their records are written in line order with the batch's). Predictions are
    submitted as the events are drawn."""
    chunks = iter(lambda: list(itertools.islice(records, batch_size * READ_BATCHES)), [])
    reads: deque[tuple[Any, int]] = deque()

    def read_ahead() -> None:
        while len(reads) < READS_AHEAD:
            chunk = next(chunks, None)
            if chunk is None:
                return
            reads.append((pool.submit("read", str(path), chunk), len(chunk)))

    ray = require_ray()
    batch: list[Entry] = []
    readable = 0
    read_ahead()
    while reads:
        ref, lines = reads.popleft()
        read_ahead()
        for entry in ray.get(ref):
            batch.append(entry)
            readable += entry[1] == "input"
            if readable == batch_size:
                yield "batch", pool.submit("predict", str(path), batch)
                batch, readable = [], 0
        yield "read", lines
    if batch:
        yield "batch", pool.submit("predict", str(path), batch)


class _Writer:
    """Writes events in order into the output, the report and the errors file."""

    def __init__(self, path: Path, output: IO[str], errors: Optional[IO[str]], bar: Any) -> None:
        self.path, self.output, self.errors, self.bar = path, output, errors, bar
        self.report = StreamReport()
        self.watch: FatalWatch[BatchResult] = FatalWatch()  # as LineStreamer.run decides

    def write(self, kind: str, payload: Any) -> None:
        if kind == "read":
            self.bar.update(payload)
        else:
            result: BatchResult = require_ray().get(payload)
            fatal = None if result.fatal is None else (result.fatal_type or RuntimeError)(result.fatal)
            for held in self.watch.after(fatal, result.inputs, result):
                self._write(held)

    def finish(self) -> None:
        """At the end of the input: stop with the fatal error, or write what is still held."""
        for held in self.watch.finish():
            self._write(held)

    def _write(self, result: BatchResult) -> None:
        self.output.write(result.text)
        for number, why in result.skipped:
            LineStreamer._skip(self.path, number, why, self.report, self.errors)
        self.report.predicted += result.predicted
        self.report.blank += result.blank
        self.report.warnings.update(result.warnings)
        self.report.tallies.update(result.tallies)
        self.output.flush()


def stream_lines(
    make_model: Callable[[], LineModel],
    input_path: Path,
    output: IO[str],
    options: RayOptions,
    batch_size: int = 32,
    shard: tuple[int, int] = (0, 1),
    progress: bool = True,
    errors: Optional[IO[str]] = None,
    timings: Optional[dict[str, float]] = None,
) -> StreamReport:
    """`LineStreamer.run` on a pool of actors, each holding a model from `make_model` (a picklable
    callable: it runs on the actors' machines). Same output, same skipped-line records. `timings`,
    if given, receives the seconds spent connecting to Ray, loading the models and streaming."""
    from tqdm import tqdm

    LineStreamer(LineModel(load=str, predict_batch=list, dump=str), batch_size)  # the same --batch-size check
    start, end = shard_bounds(count_lines(input_path), *shard)
    clock = time.perf_counter()
    with (
        connected(options.address) as connect_seconds,
        ActorPool(LineWorker, (make_model, batch_size), options) as pool,
    ):
        wait_until_loaded(pool)
        loaded = time.perf_counter()
        desc = f"shard {shard[0]}/{shard[1]}" if shard != (0, 1) else input_path.name
        with tqdm(total=end - start, unit="lines", disable=not progress, desc=desc) as bar:
            writer = _Writer(input_path, output, errors, bar)
            pending: deque[tuple[str, Any]] = deque()
            in_flight = 0
            for kind, payload in _events(pool, input_path, read_lines(input_path, start, end), batch_size):
                pending.append((kind, payload))
                in_flight += kind == "batch"
                while in_flight >= pool.window:  # write up to the oldest batch, making room for the next
                    head_kind, head = pending.popleft()
                    writer.write(head_kind, head)
                    in_flight -= head_kind == "batch"
            while pending:
                writer.write(*pending.popleft())
            writer.finish()
        if timings is not None:
            timings.update(
                connect=connect_seconds, load=loaded - clock - connect_seconds, stream=time.perf_counter() - loaded
            )
    return writer.report
