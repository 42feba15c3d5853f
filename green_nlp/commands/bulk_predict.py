"""`allennlp green-predict`: `allennlp predict` for large line-based files.

What it adds to `allennlp predict`: the input is streamed (one batch in memory at a time, never
the whole file); a progress bar; a line that cannot be processed (not UTF-8, not the JSON the
predictor expects, or the model fails on it) is reported as `file:line: why` and left out while
every other line is still predicted; output order is input order; and `--shard i/N` gives process
`i` of `N` one contiguous block of lines, so the N outputs concatenated in shard order
(`cat out.0 out.1 ...`) are the output of one unsharded run.
"""
import argparse
import json
import logging
import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Dict, Iterator, List, Optional, Tuple

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError, check_for_gpu
from allennlp.common.tqdm import Tqdm
from allennlp.common.util import JsonDict
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

logger = logging.getLogger(__name__)

_CHUNK_BYTES = 1 << 20


# ------------------------------------------------------------------ input side (pure, streaming)
def parse_shard(text: str) -> Tuple[int, int]:
    """`"i/N"` -> (i, N) with 0 <= i < N."""
    try:
        index_text, count_text = text.split("/")
        index, count = int(index_text), int(count_text)
    except ValueError:
        raise ConfigurationError(f"--shard must look like i/N (e.g. 0/4), got {text!r}") from None
    if count < 1 or not 0 <= index < count:
        raise ConfigurationError(f"--shard {text}: need N >= 1 and 0 <= i < N (shards are numbered from 0)")
    return index, count


def count_lines(path: Path) -> int:
    """Number of lines, counted in fixed-size chunks (a last line without newline counts)."""
    lines, last = 0, b"\n"
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(_CHUNK_BYTES), b""):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")


def shard_bounds(total_lines: int, index: int, count: int) -> Tuple[int, int]:
    """0-based [start, end) of shard `index` of `count`: contiguous, sizes differ by at most one."""
    return total_lines * index // count, total_lines * (index + 1) // count


def read_lines(path: Path, start: int = 0, end: Optional[int] = None) -> Iterator[Tuple[int, bytes]]:
    """Yield (1-based line number, raw bytes without the line end) for lines start..end-1.

    A generator over the open file: memory holds one line, whatever the file size. Bytes, not
    text, so that one undecodable line is reported alone instead of ending the whole read.
    """
    with open(path, "rb") as stream:
        for number, raw in enumerate(stream, start=1):
            if number <= start:
                continue
            if end is not None and number > end:
                break
            yield number, raw.rstrip(b"\r\n")


# ------------------------------------------------------------------------ prediction loop
@dataclass
class BulkReport:
    """What one run did: counts and the `file:line: why` of every skipped line."""

    predicted: int = 0
    blank: int = 0
    errors: List[str] = field(default_factory=list)


class BulkPredictor:
    """
    Feeds lines to a `Predictor` in batches and writes its outputs in input order.

    # Parameters

    predictor : `Predictor`
        Any predictor; `load_line` turns a line into its JSON input, `dump_line` writes a result.
    batch_size : `int`, optional (default = `32`)
    """

    def __init__(self, predictor: Predictor, batch_size: int = 32) -> None:
        if batch_size < 1:
            raise ConfigurationError(f"--batch-size must be positive, got {batch_size}")
        self.predictor = predictor
        self.batch_size = batch_size

    def run(self, input_path: Path, output: IO[str], shard: Tuple[int, int] = (0, 1), progress: bool = True,
            errors: Optional[IO[str]] = None) -> BulkReport:
        total = count_lines(input_path)
        start, end = shard_bounds(total, *shard)
        report = BulkReport()
        batch: List[Tuple[int, JsonDict]] = []
        with Tqdm.tqdm(total=end - start, unit="lines", disable=not progress, desc=f"shard {shard[0]}/{shard[1]}") as bar:
            for number, raw in read_lines(input_path, start, end):
                bar.update(1)
                parsed = self._load(input_path, number, raw, report, errors)
                if parsed is None:
                    continue
                batch.append((number, parsed))
                if len(batch) == self.batch_size:
                    self._predict(input_path, batch, output, report, errors)
                    batch = []
            if batch:
                self._predict(input_path, batch, output, report, errors)
        return report

    def _load(self, path: Path, number: int, raw: bytes, report: BulkReport, errors: Optional[IO[str]]
              ) -> Optional[JsonDict]:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            self._skip(path, number, f"not valid UTF-8 (byte {raw[error.start]:#04x} at column {error.start + 1})",
                       report, errors)
            return None
        if not text.strip():
            report.blank += 1
            return None
        try:
            inputs = self.predictor.load_line(text)
        except (ValueError, TypeError) as error:  # json.JSONDecodeError is a ValueError
            self._skip(path, number, f"cannot read the line: {error}", report, errors)
            return None
        if isinstance(inputs, dict) and "line" in inputs:
            inputs["line"] = number  # predictors that number lines themselves count only what they saw
        return inputs

    def _predict(self, path: Path, batch: List[Tuple[int, JsonDict]], output: IO[str], report: BulkReport,
                 errors: Optional[IO[str]]) -> None:
        try:
            results = self.predictor.predict_batch_json([inputs for _, inputs in batch])
        except Exception:  # noqa: BLE001  one bad line must not end the run: find it line by line
            attempts = [self._predict_one(inputs) for _, inputs in batch]
            failures = [error for _, error in attempts if error is not None]
            if report.predicted == 0 and len(failures) == len(batch) and all(
                    isinstance(error, ConfigurationError) for error in failures):
                raise failures[0]  # model and input kind do not fit: every line would fail the same way
            results = []
            for (number, _), (result, error) in zip(batch, attempts):
                if error is not None:
                    self._skip(path, number, f"{type(error).__name__}: {error}", report, errors)
                results.append(result)
        for (number, _), result in zip(batch, results):
            if result is None:
                continue
            if isinstance(result, dict) and "error" in result:  # a predictor's own per-line error record
                self._skip(path, number, str(result["error"]), report, errors)
                continue
            output.write(self.predictor.dump_line(result))
            report.predicted += 1
        output.flush()

    def _predict_one(self, inputs: JsonDict) -> Tuple[Optional[JsonDict], Optional[Exception]]:
        try:
            return self.predictor.predict_batch_json([inputs])[0], None
        except Exception as error:  # noqa: BLE001
            return None, error

    @staticmethod
    def _skip(path: Path, number: int, why: str, report: BulkReport, errors: Optional[IO[str]]) -> None:
        message = f"{path}:{number}: {why}"
        report.errors.append(message)
        logger.warning("skipped %s", message)
        if errors is not None:
            errors.write(json.dumps({"file": str(path), "line": number, "error": why}, ensure_ascii=False) + "\n")


# ------------------------------------------------------------------------------ the command
@Subcommand.register("green-predict")
class GreenPredict(Subcommand):
    """`allennlp green-predict ARCHIVE INPUT --output-file OUT [--shard i/N] ...`"""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (__doc__ or "").split("\n\n", 1)[1].strip()
        subparser = parser.add_parser(self.name, description=description,
                                      help="Stream a large line-based file through a model, optionally sharded.")
        subparser.add_argument("archive_file", type=str, help="the model.tar.gz to predict with")
        subparser.add_argument("input_file", type=Path, help="one input per line (text or JSON, as the predictor reads)")
        subparser.add_argument("--output-file", type=Path, help="where to write the outputs (default: stdout)")
        subparser.add_argument("--errors-file", type=Path,
                               help="also write every skipped line as JSON {file, line, error}")
        subparser.add_argument("--predictor", type=str, help="registered predictor name (default: the model's)")
        subparser.add_argument("--predictor-args", type=str, default="",
                               help="JSON object of extra predictor constructor arguments")
        subparser.add_argument("--batch-size", type=int, default=32, help="lines per model call")
        subparser.add_argument("--shard", type=str, default="0/1",
                               help="i/N: predict only the i-th of N contiguous blocks of lines (i from 0)")
        subparser.add_argument("--cuda-device", type=int, default=-1, help="GPU id, -1 for CPU")
        subparser.add_argument("-o", "--overrides", type=str, default="", help="JSON overrides of the archive's config")
        subparser.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
        subparser.set_defaults(func=_bulk_predict_from_args)
        return subparser


def build_predictor(archive_file: str, predictor_name: Optional[str] = None, predictor_args: str = "",
                    cuda_device: int = -1, overrides: str = "") -> Predictor:
    check_for_gpu(cuda_device)
    try:
        extra_args: Dict[str, Any] = json.loads(predictor_args) if predictor_args else {}
    except json.JSONDecodeError as error:
        raise ConfigurationError(f"--predictor-args is not a JSON object: {error}") from None
    archive = load_archive(archive_file, cuda_device=cuda_device, overrides=overrides)
    return Predictor.from_archive(archive, predictor_name, extra_args=extra_args)


def _bulk_predict_from_args(args: argparse.Namespace) -> None:
    if not args.input_file.is_file():
        raise ConfigurationError(f"input file not found: {args.input_file}")
    shard = parse_shard(args.shard)
    bulk = BulkPredictor(build_predictor(args.archive_file, args.predictor, args.predictor_args, args.cuda_device,
                                         args.overrides), args.batch_size)
    with ExitStack() as stack:
        output = stack.enter_context(open(args.output_file, "w", encoding="utf-8")) if args.output_file else sys.stdout
        errors = stack.enter_context(open(args.errors_file, "w", encoding="utf-8")) if args.errors_file else None
        report = bulk.run(args.input_file, output, shard, progress=not args.no_progress, errors=errors)
    print(f"green-predict: shard {shard[0]}/{shard[1]} of {args.input_file}: {report.predicted} lines predicted, "
          f"{len(report.errors)} skipped, {report.blank} blank", file=sys.stderr)
    for message in report.errors[:20]:
        print(f"  skipped {message}", file=sys.stderr)
    if len(report.errors) > 20:
        print(f"  ... and {len(report.errors) - 20} more", file=sys.stderr)
