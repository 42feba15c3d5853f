"""Stream a line-based file through a model: per-line errors, input order, shards. No torch here.

Shared by `allennlp green-predict` (an AllenNLP predictor) and `green-nlp parse|tag|classify` (the
ONNX runtime): the input is read as bytes one line at a time (memory holds one batch, whatever the
file size; `\n`, `\r\n` and a lone `\r` all end a line); a line that cannot be processed (not
UTF-8, not what the model reads, or the model fails on it) is reported as `file:line: why` with its
physical line number, while every other line is still predicted, in input order. With
`LineRecords` every line, blank and failed ones included, gets exactly one output record carrying
its line number, at its place (the record contract of `green-nlp` and `green-predict`); without,
failed and blank lines leave no output (`allennlp predict`'s own contract). `--shard i/N` gives
process `i` of `N` one contiguous block of lines, so the N outputs concatenated in shard order are
one unsharded run's.
"""

import json
import logging
import os
import stat
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Generic, Optional, TypeVar, Union

logger = logging.getLogger(__name__)

# bytes read at a time: a chunk's lines are split at once (`split_lines`), so memory holds about three
# chunks' worth; 256 KiB kept the peak near 1.1 MB on a 12 MB file (1 MiB: 4.6 MB) and split as fast
_CHUNK_BYTES = 1 << 18
# 128 + SIGPIPE: the status a shell reports for a process a closed pipe ended (`... | head`)
BROKEN_PIPE_STATUS = 141


def after_broken_pipe() -> int:
    """Standard output's reader went away (`... | head`): point it at /dev/null, so that the
    interpreter's last flush does not raise again, and give the status to exit with."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return BROKEN_PIPE_STATUS


Inputs = TypeVar("Inputs")
Result = TypeVar("Result")


class UsageError(ValueError):
    """A setting the user gave cannot work (the message says what to change)."""


class DamagedInput(UsageError):
    """The input could not be read past some point (a truncated or damaged compressed file, a file
    named .gz that is not gzip): the lines before it were read. `report` is set once the lines
    read before were predicted and written."""

    report: Optional["StreamReport"] = None


def parse_shard(text: str) -> tuple[int, int]:
    """`"i/N"` -> (i, N) with 0 <= i < N."""
    try:
        index_text, count_text = text.split("/")
        index, count = int(index_text), int(count_text)
    except ValueError:
        raise UsageError(f"--shard must look like i/N (e.g. 0/4), got {text!r}") from None
    if count < 1 or not 0 <= index < count:
        raise UsageError(f"--shard {text}: need N >= 1 and 0 <= i < N (shards are numbered from 0)")
    return index, count


STDIN = Path("-")
_DECOMPRESSORS = {".gz": "gzip", ".bz2": "bz2", ".xz": "lzma", ".lzma": "lzma"}


def open_bytes(path: Path) -> IO[bytes]:
    """The input as a binary stream: `-` is standard input (left open when the caller closes the
    stream), a .gz/.bz2/.xz/.lzma file is decompressed on the fly (the standard library's modules),
    anything else is read as it is."""
    if Path(path) == STDIN:
        import os
        import sys

        return os.fdopen(os.dup(sys.stdin.buffer.fileno()), "rb")
    module = _DECOMPRESSORS.get(Path(path).suffix.lower())
    if module is not None:
        import importlib

        return importlib.import_module(module).open(path, "rb")
    return open(path, "rb")


def open_text_output(path: Path) -> IO[str]:
    """An output file for UTF-8 text, compressed as its name says (.gz/.bz2/.xz/.lzma), as
    `open_bytes` reads inputs: `-o out.conllu.gz` had written plain text under a gzip name."""
    module = _DECOMPRESSORS.get(Path(path).suffix.lower())
    if module is not None:
        import importlib

        return importlib.import_module(module).open(path, "wt", encoding="utf-8")
    return open(path, "w", encoding="utf-8")


def check_input(path: Path) -> None:
    """Refuse an input that cannot be read before any model is loaded, saying why: missing, or a
    folder (`Path.is_file` alone would call a folder "not found"). `-` is standard input; a pipe
    (`/dev/stdin`, a shell's `<(...)`) is read like it."""
    path = Path(path)
    if path == STDIN:
        return
    if path.is_dir():
        raise UsageError(f"{path} is a folder, not an input file")
    if not path.exists():
        raise UsageError(f"input file not found: {path}")


def is_stream(path: Path) -> bool:
    """Standard input or a pipe: readable once, so never counted, sharded or peeked at first."""
    return Path(path) == STDIN or not Path(path).is_file()


def _file_key(where: Union[Path, int]) -> Any:
    """What names one file however it is spelt (a link, `./x`, an open descriptor): the device and
    inode of a regular file, the resolved path of one that does not exist yet (it will be created),
    None for anything else (a terminal, /dev/null, a pipe), which no run can overwrite by accident."""
    try:
        status = os.stat(where)
    except OSError:
        return None if isinstance(where, int) else str(Path(where).resolve())
    return (status.st_dev, status.st_ino) if stat.S_ISREG(status.st_mode) else None


def same_file(first: Union[Path, int], second: Union[Path, int]) -> bool:
    """Whether two paths (or open descriptors) name one regular file."""
    key = _file_key(first)
    return key is not None and key == _file_key(second)


def check_distinct(input_path: Path, outputs: dict[str, Optional[Path]], stdout_option: str = "") -> None:
    """Refuse an output that names the input file or another output before anything is opened for
    writing: opening it would empty the file still to be read (or mix two outputs in one). Standard
    input redirected from a file (`- < f`) counts as that file, and so does standard output for
    `stdout_option` left unset (`> f`, `>> f`)."""
    reads_stdin = Path(input_path) == STDIN
    key = _file_key(0 if reads_stdin else Path(input_path))
    seen: dict[Any, str] = {}
    if key is not None:
        seen[key] = "the file standard input reads" if reads_stdin else f"the input file {input_path}"
    for option, path in outputs.items():
        if path is None and option != stdout_option:
            continue
        key = _file_key(1 if path is None else Path(path))
        name = f"{option} {path}" if path is not None else "standard output"
        if key is None:
            continue
        if key in seen:
            raise UsageError(f"{name} is {seen[key]}: writing there would overwrite it; give another file name")
        seen[key] = f"also given to {option}" if path is not None else "standard output"


def check_output(path: Optional[Path]) -> None:
    """Refuse an output path that cannot be written before any model is loaded (a missing folder
    used to end the run with a traceback after the model had loaded)."""
    if path is None:
        return
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a folder; give a file name")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist (create it first)")


# the byte-order marks a UTF-16 (or UTF-32) file starts with: little- and big-endian
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")
# why a UTF-8 byte-order mark at the start of a later line of a CoNLL(-U) file is refused: it would
# stay glued to that line's first word or ID; usually two files joined with `cat`
STRAY_BOM = (
    "starts with a UTF-8 byte-order mark, which belongs only at the start of a file (files joined "
    "with cat?); delete it, e.g. sed -i '2,$ s/^\\xEF\\xBB\\xBF//' FILE"
)


def split_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of a binary stream without their ends, read in fixed-size chunks; a last line
    without an end counts. The first line end says how the file ends its lines:
    - `\n` or `\r\n` (nearly every file): those end lines, and a lone `\r` inside a line stays in
      it, so the records match the lines an editor and `wc -l` count (a stray carriage return in a
      review made it two records, and every later line number one off);
    - a lone `\r` (old Mac files): `\r`, `\n` and `\r\n` all end lines, so such a file is not
      one long line."""
    rest = b""
    lone_cr: Optional[bool] = None  # how this file ends its lines, once its first line end is read
    # read1: one read of the underlying file at a time, so that a damaged .gz gives up the lines
    # before the damage (a buffered read(n) keeps reading to n bytes and loses them with the error)
    read = getattr(stream, "read1", stream.read)
    for chunk in iter(lambda: read(_CHUNK_BYTES), b""):
        # what is left of the chunks before holds no line end but a last \r: only the new bytes are searched
        since = max(0, len(rest) - 1)
        rest += chunk
        if lone_cr is None:
            lone_cr = _ends_lines_with_lone_cr(rest)
            if lone_cr is None:
                continue
            since = 0
        if lone_cr:
            # a \r at the end of a chunk may be the first half of \r\n: keep it for the next chunk
            cut = len(rest) - 1 if rest.endswith(b"\r") else len(rest)
            last = max(rest.rfind(b"\n", since, cut), rest.rfind(b"\r", since, cut))  # the last line end
            if last < 0:
                continue
            # bytes.splitlines breaks at exactly \n, \r\n and \r: the chunk's whole lines in one C call (a
            # regex match a line took 1.6-1.9 us a line more on SST-2's short lines, a slow core)
            yield from rest[: last + 1].splitlines()
        else:
            last = rest.rfind(b"\n", since)
            if last < 0:
                continue
            whole = rest[:last]
            lines = whole.split(b"\n")
            yield from (line[:-1] if line.endswith(b"\r") else line for line in lines) if b"\r" in whole else lines
        rest = rest[last + 1 :]
    if rest:
        yield rest[:-1] if rest.endswith(b"\r") else rest


def _ends_lines_with_lone_cr(data: bytes) -> Optional[bool]:
    """Whether the first line end in `data` is a lone `\r`; None while there is none yet, or it is a
    `\r` at the very end (the next byte decides)."""
    newline, carriage = data.find(b"\n"), data.find(b"\r")
    if carriage < 0 or (0 <= newline < carriage):
        return None if newline < 0 else False
    if carriage + 1 == len(data):
        return None
    return data[carriage + 1 : carriage + 2] != b"\n"


def count_lines(path: Path) -> int:
    """Number of lines as `read_lines` reads them (a last line without a line end counts)."""
    if is_stream(path):
        raise UsageError("standard input or a pipe cannot be split into shards: give a file")
    return sum(1 for _ in read_lines(path))


def _damaged(path: Path, last_line: int, error: Exception) -> DamagedInput:
    if isinstance(error, EOFError):
        why = "the compressed data ends early (a truncated file?)"
    elif "crc" in str(error).lower():  # checked at the end of a stream: the lines before may be damaged too
        why = f"the compressed data is corrupt ({error}); the records already written may be wrong as well"
    else:
        why = str(error) or type(error).__name__
    where = f"after line {last_line}" if last_line else "from its start"
    return DamagedInput(f"{path}: cannot be read {where}: {why}")


def shard_bounds(total_lines: int, index: int, count: int) -> tuple[int, int]:
    """0-based [start, end) of shard `index` of `count`: contiguous, sizes differ by at most one."""
    return total_lines * index // count, total_lines * (index + 1) // count


def read_lines(path: Path, start: int = 0, end: Optional[int] = None) -> Iterator[tuple[int, bytes]]:
    """Yield (1-based line number, raw bytes without the line end) for lines start..end-1.

    A generator over the open file: memory holds one line, whatever the file size. Bytes, not
    text, so that one undecodable line is reported alone instead of ending the whole read. A file
    that cannot be read on (a damaged .gz/.bz2/.xz, a file named .gz that is not gzip) raises
    `DamagedInput` naming the last line read, after the lines before it were yielded.
    """
    import lzma
    import zlib

    number = 0
    try:
        with open_bytes(path) as stream:
            for number, raw in enumerate(split_lines(stream), start=1):
                if number == 1 and raw[:2] in UTF16_MARKS:
                    convert = "iconv -f UTF-16 -t UTF-8"
                    command = f"pipe it through {convert}" if is_stream(path) else f"{convert} {path} > utf8.txt"
                    raise DamagedInput(
                        f"{path}: cannot be read: it is UTF-16 text (it starts with a UTF-16 byte-order mark), "
                        f"and lines must be UTF-8; convert it first, e.g. {command}"
                    )
                if number <= start:
                    continue
                if end is not None and number > end:
                    break
                yield number, raw
    except (EOFError, OSError, zlib.error, lzma.LZMAError) as error:  # gzip.BadGzipFile is an OSError
        raise _damaged(path, number, error) from None


class _NoBar:
    """What `progress_bar` gives when no bar is shown: `update` does nothing."""

    def __enter__(self) -> "_NoBar":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, count: int = 1) -> None:
        return None


def progress_bar(show: bool, **options: Any) -> Any:
    """A tqdm bar over the lines, or a no-op one: tqdm (a dependency of spaCy and of AllenNLP alike)
    costs ~40 ms to import, a tenth of `green-nlp classify`'s start, for runs that show no bar."""
    if not show:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(**options)


def decode_line(raw: bytes) -> tuple[Optional[str], Optional[str]]:
    """(text, None), or (None, why) for bytes that are not UTF-8 or hold a NUL."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, f"not valid UTF-8 (byte {raw[error.start]:#04x} at column {error.start + 1})"
    if "\x00" in text:
        return None, f"holds a NUL byte at column {text.index(chr(0)) + 1} (binary data?)"
    return text.lstrip("\ufeff") if text.startswith("\ufeff") else text, None


BLANK_LINE = "blank line (no text)"

# One read line: (line number, "input" | "blank" | "skip", the model input or why the line failed)
Entry = tuple[int, str, Any]


def failure_message(error: BaseException) -> str:
    """Why a line failed, for its record: a ValueError's or TypeError's own message (what the model's
    input checks write for the user), any other error's with its class (`IndexError: ...`, an error
    no check foresaw, which its class helps to trace)."""
    if isinstance(error, (ValueError, TypeError)) and str(error):
        return str(error)
    return f"{type(error).__name__}: {error}"


def line_count(count: int) -> str:
    """`1 line`, `2 lines`: a count of lines in the summary."""
    return f"{count} line" if count == 1 else f"{count} lines"


@dataclass
class StreamReport:
    """What one run did: counts, the `file:line: why` of every failed line, and how many results
    carry each warning (what follows `N lines` in the summary, e.g. "with no known n-gram")."""

    predicted: int = 0
    blank: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: Counter = field(default_factory=Counter)
    tallies: Counter = field(default_factory=Counter)  # what the model's `tally` counts over the run

    @property
    def failed(self) -> int:
        """Lines that gave an error record or none: failed lines and blank lines (`--fail-on-error`)."""
        return len(self.errors) + self.blank

    def summary(self, command: str, path: Path, shard: tuple[int, int] = (0, 1)) -> str:
        where = f"shard {shard[0]}/{shard[1]} of {path}" if shard != (0, 1) else str(path)
        counts = f"{line_count(self.predicted)} predicted, {len(self.errors)} skipped, {self.blank} blank"
        flagged = "".join(f"; {line_count(count)} {name}" for name, count in sorted(self.warnings.items()))
        lines = [f"{command}: {where}: {counts}{flagged}"]
        lines += [f"  skipped {message}" for message in self.errors[:20]]
        if len(self.errors) > 20:
            lines.append(f"  ... and {len(self.errors) - 20} more")
        return "\n".join(lines)


@dataclass
class LineRecords(Generic[Result]):
    """One output record per input line, each carrying its 1-based line number: `ok` writes a
    result, `error` a line that failed or was blank, in the line's place."""

    ok: Callable[[int, Result], str]
    error: Callable[[int, str], str]


@dataclass
class LineModel(Generic[Inputs, Result]):
    """What the streamer needs from a model: read a line, predict a batch, write a result.

    `load` raises ValueError/TypeError for a line it cannot read; a result that is a dict with an
    `error` key is the model's own per-line error record. When a run's first `FATAL_AFTER_LINES`
    readable lines (or all of them, in a shorter input) fail with one of `fatal_errors`, the model
    and the input kind do not fit and the run stops with that error, writing nothing, instead of
    reporting every line (`FatalWatch`); a batch that fails with one of `abort_errors` (a broken model
    folder) stops the run at once, whatever came before. `records`, when given, writes every line's record (see
    `LineRecords`) instead of `dump`; `warning` names what is doubtful about a result (counted in
    the summary), or gives None; `tally` gives counts to add up over the run (`StreamReport.tallies`),
    and `note` what to say of those totals after the summary, or None.
    """

    load: Callable[[str], Inputs]
    predict_batch: Callable[[list[Inputs]], Sequence[Result]]
    dump: Callable[[Result], str]
    fatal_errors: tuple[type[BaseException], ...] = ()
    abort_errors: tuple[type[BaseException], ...] = ()
    number_inputs: Optional[Callable[[Inputs, int], None]] = None  # tells an input its physical line number
    records: Optional[LineRecords[Result]] = None
    warning: Optional[Callable[[Result], Optional[str]]] = None
    tally: Optional[Callable[[Result], Mapping[str, int]]] = None
    note: Optional[Callable[[Mapping[str, int]], Optional[str]]] = None


# readable lines that must all fail with a model's fatal error (input of a kind it cannot take) before a
# run stops with that error: the default sort window, so that `green-nlp parse` decides on the same
# lines whatever --batch-size and --sort-window, and `allennlp predict`'s batches of one do too
FATAL_AFTER_LINES = 512

Held = TypeVar("Held")


@dataclass
class Outcome:
    """A batch's results by line number, the lines that failed with why, and the error every readable
    line failed with when it is one of the model's `fatal_errors` (else None)."""

    results: dict[int, Any]
    failed: dict[int, str]
    fatal: Optional[BaseException]


class FatalWatch(Generic[Held]):
    """Decides whether a run's input is of a kind the model cannot take: the batches whose every
    readable line failed with a fatal error are held back, unwritten, from the start of the run
    until a batch does not (then they are handed back to be written as failed lines, and the run
    goes on) or until `FATAL_AFTER_LINES` readable lines failed so (then the run stops with the
    error, as it does at the end of a shorter input). The decision depends on the lines alone, not
    on how they were cut into batches."""

    def __init__(self, after_lines: Optional[int] = None) -> None:
        self.after_lines = FATAL_AFTER_LINES if after_lines is None else after_lines
        self.deciding = True
        self.held: list[Held] = []
        self.lines = 0
        self.error: Optional[BaseException] = None

    def after(self, fatal: Optional[BaseException], inputs: int, item: Held) -> list[Held]:
        """What to write now, in order, after a batch of `inputs` readable lines (`item`), given the
        error all of them failed with (`fatal`, None if not); raises that error once decided."""
        if self.deciding and fatal is not None:
            self.held.append(item)
            self.lines += inputs
            self.error = self.error or fatal
            if self.lines >= self.after_lines:
                raise self.error from None
            return []
        if self.deciding and inputs == 0:  # blank or unreadable lines only: nothing decided yet
            self.held.append(item)
            return []
        self.deciding = False
        return self.release() + [item]

    def release(self) -> list[Held]:
        """The held batches (the run goes on, or its input broke off), to write as they are."""
        held, self.held = self.held, []
        return held

    def finish(self) -> list[Held]:
        """At the end of the input: stop with the error if every readable line failed with it, else
        what is still held (batches of blank or unreadable lines only)."""
        if self.deciding and self.error is not None:
            raise self.error from None
        return self.release()


class LineStreamer(Generic[Inputs, Result]):
    """Feeds the lines of a file to a `LineModel` in batches and writes its outputs in input order.

    A batch holds `batch_size` readable lines and the failed and blank lines met among them, so
    that every record is written in line order while the model sees the same batches whatever
    the bad lines (the `--ray` driver forms the same batches).
    """

    def __init__(self, model: LineModel[Inputs, Result], batch_size: int = 32) -> None:
        if batch_size < 1:
            raise UsageError(f"--batch-size must be positive, got {batch_size}")
        self.model = model
        self.batch_size = batch_size

    def run(
        self,
        input_path: Path,
        output: IO[str],
        shard: tuple[int, int] = (0, 1),
        progress: bool = True,
        errors: Optional[IO[str]] = None,
    ) -> StreamReport:
        # counting reads the whole input once more: only for shards and the progress bar (not stdin)
        start, end = 0, None
        if shard != (0, 1) or (progress and not is_stream(input_path)):
            start, end = shard_bounds(count_lines(input_path), *shard)
        report = StreamReport()
        batch: list[Entry] = []
        readable = 0
        desc = f"shard {shard[0]}/{shard[1]}" if shard != (0, 1) else input_path.name
        watch: FatalWatch[tuple[list[Entry], Outcome]] = FatalWatch()

        def predict(batch: list[Entry]) -> None:
            outcome = self._outcome(batch)
            inputs = sum(kind == "input" for _, kind, _ in batch)
            for held, held_outcome in watch.after(outcome.fatal, inputs, (batch, outcome)):
                self._write(input_path, held, held_outcome, output, report, errors)

        with progress_bar(progress, total=None if end is None else end - start, unit="lines", desc=desc) as bar:
            try:
                for number, raw in read_lines(input_path, start, end):
                    bar.update(1)
                    entry = self.read_entry(number, raw)
                    batch.append(entry)
                    readable += entry[1] == "input"
                    if readable == self.batch_size:
                        predict(batch)
                        batch, readable = [], 0
            except DamagedInput as error:  # the lines read before the damage still get their records
                if batch:
                    predict(batch)
                for held, held_outcome in watch.release():
                    self._write(input_path, held, held_outcome, output, report, errors)
                error.report = report
                raise
            if batch:
                predict(batch)
            for held, held_outcome in watch.finish():
                self._write(input_path, held, held_outcome, output, report, errors)
        return report

    def read_entry(self, number: int, raw: bytes) -> Entry:
        """A line as the model's input, or as blank, or as failed with why."""
        text, why = decode_line(raw)
        if text is None:
            return number, "skip", why or "unreadable"
        if not text.strip():
            return number, "blank", BLANK_LINE
        try:
            inputs = self.model.load(text)
        except (ValueError, TypeError, KeyError) as error:  # json.JSONDecodeError is a ValueError
            return number, "skip", f"cannot read the line: {error}"
        if self.model.number_inputs is not None:
            self.model.number_inputs(inputs, number)
        return number, "input", inputs

    def _predict(
        self,
        path: Path,
        batch: list[Entry],
        output: IO[str],
        report: StreamReport,
        errors: Optional[IO[str]],
    ) -> Optional[BaseException]:
        """Predict the readable lines of `batch` and write every line's record in line order; the
        error every readable line failed with when it is one of the model's `fatal_errors` (the
        caller decides, over the run's first lines, whether the run stops: `FatalWatch`)."""
        outcome = self._outcome(batch)
        self._write(path, batch, outcome, output, report, errors)
        return outcome.fatal

    def _outcome(self, batch: list[Entry]) -> "Outcome":
        """The model's results for the readable lines of `batch`: the whole batch in one call, or
        line by line once that call fails, so one bad line does not lose the others."""
        numbers = [number for number, kind, _ in batch if kind == "input"]
        inputs = [payload for _, kind, payload in batch if kind == "input"]
        try:
            results: list[Optional[Result]] = list(self.model.predict_batch(inputs)) if inputs else []
        except self.model.abort_errors:  # the model itself is broken (its folder): no later line can be right
            raise
        except Exception:  # noqa: BLE001  one bad line must not end the run: find it line by line
            attempts = [self._predict_one(one) for one in inputs]
            failures = [error for _, error in attempts if error is not None]
            fatal = self.model.fatal_errors
            every_line_fatal = (
                bool(fatal) and len(failures) == len(inputs) and all(isinstance(e, fatal) for e in failures)
            )
            failed = {n: failure_message(error) for n, (_, error) in zip(numbers, attempts) if error}
            return Outcome(
                dict(zip(numbers, (result for result, _ in attempts))),
                failed,
                failures[0] if every_line_fatal else None,
            )
        return Outcome(dict(zip(numbers, results)), {}, None)

    def _write(
        self,
        path: Path,
        batch: list[Entry],
        outcome: "Outcome",
        output: IO[str],
        report: StreamReport,
        errors: Optional[IO[str]],
    ) -> None:
        """Every line's record of `batch`, in line order, handed to the output in one call."""
        written: list[str] = []  # the batch's records, handed over in one call; those made before an
        # error or Ctrl-C are still written, whole
        try:
            for number, kind, payload in batch:
                record = self._record(path, number, kind, payload, outcome.results, outcome.failed, report, errors)
                if record is not None:
                    written.append(record)
        finally:
            _write_records(output, written)
        output.flush()

    def _record(
        self,
        path: Path,
        number: int,
        kind: str,
        payload: Any,
        outcomes: dict[int, Any],
        failed: dict[int, str],
        report: StreamReport,
        errors: Optional[IO[str]],
    ) -> Optional[str]:
        """One line's record (None for a blank or failed line without `records`), counted in `report`."""
        if kind == "blank":
            report.blank += 1
            why: str = payload
        elif kind == "skip":
            why = payload
        else:
            result = outcomes[number]
            problem = failed.get(number) or result_error(result)
            if problem is None:
                return self._result_record(number, result, report)
            why = problem
        if kind != "blank":
            self._skip(path, number, why, report, errors)
        records = self.model.records
        return records.error(number, why) if records is not None else None

    def _result_record(self, number: int, result: Any, report: StreamReport) -> str:
        model = self.model
        record = model.dump(result) if model.records is None else model.records.ok(number, result)
        report.predicted += 1
        if model.warning is not None:
            warning = model.warning(result)
            if warning:
                report.warnings[warning] += 1
        if model.tally is not None:
            report.tallies.update(model.tally(result))
        return record

    def _predict_one(self, inputs: Inputs) -> tuple[Optional[Result], Optional[Exception]]:
        try:
            return self.model.predict_batch([inputs])[0], None
        except Exception as error:  # noqa: BLE001
            return None, error

    @staticmethod
    def _skip(path: Path, number: int, why: str, report: StreamReport, errors: Optional[IO[str]]) -> None:
        message = f"{path}:{number}: {why}"
        report.errors.append(message)
        logger.warning("skipped %s", message)
        if errors is not None:
            errors.write(json.dumps({"file": str(path), "line": number, "error": why}, ensure_ascii=False) + "\n")


def _write_records(output: Any, records: list[str]) -> None:
    """`records` to `output` one `write` each (a sink may take each record apart, as the `allennlp
    predict` patch's does), through the output's `writelines` where it has one: a file's loops in C,
    where a Python-level write a record through the CLI's `NamedWrites` cost 1.3 us a line more (2.0
    against 0.7 us a JSON line of SST-2, a slow core)."""
    writelines = getattr(output, "writelines", None)
    if writelines is not None:
        writelines(records)
        return
    for record in records:
        output.write(record)


def result_error(result: Any) -> Optional[str]:
    """A model's own per-line error: a predictor's `{"error": ...}` record, or the runtime's
    `InputFailure` (its `error` as a single call words it: the line number names the place)."""
    if isinstance(result, dict):
        return str(result["error"]) if "error" in result else None
    error = getattr(result, "error", None)
    return None if error is None else str(getattr(error, "alone", error))


def json_record(number: int, record: dict[str, Any]) -> str:
    """One JSON line with the input's line number first (`{"line": n, ...}`)."""
    return json.dumps({"line": number, **{k: v for k, v in record.items() if k != "line"}}, ensure_ascii=False) + "\n"


def json_error(number: int, why: str) -> str:
    """The JSON error record of a failed or blank line."""
    return json.dumps({"line": number, "error": why}, ensure_ascii=False) + "\n"


def comment_block(number: Optional[int], why: str) -> str:
    """The error record of a failed or blank line in CoNLL-style output: a block of comments only
    (`number` None: a predictor's record for an input given without a line number)."""
    return f"# line = {number}\n# error = {' '.join(why.split())}\n\n"


def with_line_comment(number: int, blocks: Sequence[str], sent_ids: bool = False) -> str:
    """CoNLL-style sentence blocks, each opened by `# line = n` (with `--split-sentences` a line
    may give several blocks; they share its number). `sent_ids`: CoNLL-U blocks, each opened by
    the `# sent_id` UD's validator requires, unique in the file and the same in every shard or
    batch order: `n` for a line's only sentence, `n-1`, `n-2`... for several."""
    if not blocks:
        return f"# line = {number}\n\n"
    if not sent_ids:
        return "".join(f"# line = {number}\n" + block.rstrip("\n") + "\n\n" for block in blocks)
    ids = [str(number)] if len(blocks) == 1 else [f"{number}-{k}" for k in range(1, len(blocks) + 1)]
    return "".join(
        f"# sent_id = {sent_id}\n# line = {number}\n" + block.rstrip("\n") + "\n\n"
        for sent_id, block in zip(ids, blocks)
    )


# Fields every green_nlp entry point reads from a JSON line, and what each must hold.
TEXT_FIELDS = ("sentence", "text")
WORD_LIST_FIELDS = ("words", "upos")
# every character Python's str.splitlines breaks a line at: in a word, label or comment, a reader of
# the CoNLL-U or JSON lines written would see a row cut in two (the runtime's writer and folder checks
# use this set too)
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_FORBIDDEN_IN_WORDS = {"\t": "a tab", **dict.fromkeys(LINE_BREAKS, "a line break"), "\x00": "a NUL character"}


def _kind(value: Any, none: str = "null") -> str:
    """A value's kind in a message, in JSON's words; `none`: what None is called ("None" where the
    value came from Python, not from a JSON line)."""
    return (
        none
        if value is None
        else {
            list: "a list",
            dict: "an object",
            str: "a string",
            bool: "a boolean",
            int: "a number",
            float: "a number",
        }.get(type(value), type(value).__name__)
    )


def _unwritable(text: str) -> Optional[str]:
    """What in `text` must not reach the output: a NUL, or a lone surrogate (a JSON escape such as
    \\ud800 decodes to one, and writing it as UTF-8 would fail after the line was predicted)."""
    if "\x00" in text:
        return f"a NUL character at position {text.index(chr(0)) + 1}"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return f"a lone surrogate ({text[error.start]!r}) at position {error.start + 1}, which is not UTF-8"
    return None


def text_problem(value: Any, none: str = "null") -> Optional[str]:
    """What makes `value` unusable as a text (`must be a string, got a number`, `holds a NUL
    character at position 3`), or None; the caller puts the text's name before it. `none`: what
    None is called (`_kind`)."""
    if not isinstance(value, str):
        return f"must be a string, got {_kind(value, none)}"
    bad = _unwritable(value)
    return f"holds {bad}" if bad else None


def word_list_problem(value: Any, none: str = "null") -> Optional[tuple[Optional[int], str]]:
    """(0-based item or None for the list as a whole, what is wrong) for a list of words or tags
    that cannot be used, or None. Words may not be empty or hold a tab, line break or NUL (they
    would break the CoNLL-U columns the parser writes), nor a lone surrogate."""
    if not isinstance(value, list):
        return None, f"must be a list of strings, got {_kind(value, none)}"
    # the common case, a clean list, checked in a few C-level passes over all words at once (the loop
    # below, word by word, was 7 % of parsing pre-tokenized sentences); the loop then names the culprit
    if all(type(item) is str for item in value) and all(map(str.strip, value)):
        joined = "".join(value)
        if not any(char in joined for char in _FORBIDDEN_IN_WORDS) and _unwritable(joined) is None:
            return None
    for index, item in enumerate(value):
        if not isinstance(item, str):
            return index, f"is {_kind(item, none)}, not a string"
        if not item.strip():
            return index, "is empty or only whitespace"
        bad = next((name for char, name in _FORBIDDEN_IN_WORDS.items() if char in item), None) or _unwritable(item)
        if bad:
            return index, f"holds {bad}"
    return None


def check_json_fields(record: dict[str, Any]) -> dict[str, Any]:
    """`record` itself, or a ValueError naming the field and the type it needs.

    Without this check `{"words": "abc"}` was parsed as the three words a, b, c (`list("abc")`), and
    a number or null as `"sentence"` failed deep inside the tokenizer. Texts and words may not hold
    a NUL (it would be copied to the output); words may not be empty or hold a tab or line break
    (they would break the CoNLL-U columns the parser writes). The runtime's Python API applies the
    same checks (`text_problem`, `word_list_problem`) to its arguments.
    """
    for key in TEXT_FIELDS:
        if key not in record:
            continue
        problem = text_problem(record[key])
        if problem:
            raise ValueError(f"field {key!r} {problem}")
    for key in WORD_LIST_FIELDS:
        value: Any = record.get(key)
        if key not in record or (value is None and key == "upos"):
            continue
        found = word_list_problem(value)
        if found is None:
            continue
        index, problem = found
        if index is None:
            raise ValueError(f"field {key!r} {problem}")
        if not isinstance(value[index], str):
            raise ValueError(f"field {key!r} must be a list of strings; item {index + 1} is {_kind(value[index])}")
        raise ValueError(f"field {key!r}: item {index + 1} {problem}")
    _refuse_two_inputs(record)
    return record


def _refuse_two_inputs(record: dict[str, Any]) -> None:
    """A line that gives its input twice is refused: which one a reader took was a silent choice
    (`words` over `text` in the parser, `text` over `sentence` in the classifier). The same text
    under both names (as the spaCy components send it) is one input."""
    if "sentence" in record and "text" in record and record["sentence"] != record["text"]:
        raise ValueError("fields 'sentence' and 'text' hold different texts: give one")
    given = next((key for key in TEXT_FIELDS if key in record), None)
    if given is not None and "words" in record:
        raise ValueError(
            f"the line gives both 'words' and {given!r}: give one ('words' keeps your tokens, "
            f"{given!r} is split into sentences and tokenized)"
        )


def json_object(line: str, check: bool = True) -> Optional[dict[str, Any]]:
    """A line's JSON object (its fields checked by `check_json_fields` unless `check` is off), or None
    when the line is text.

    A line that starts with `{` is JSON: one that does not parse is an error for that line, not text
    to parse, tag or classify as if it were prose (give such text as `{"text": ...}`). A line that
    is a whole JSON array is refused too.
    """
    stripped = line.strip()
    if stripped.startswith("["):
        _refuse_json_array(stripped)
    if not stripped.startswith("{"):
        return None
    try:
        value: Any = json.loads(stripped)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None
    except json.JSONDecodeError as error:
        raise ValueError(
            f"broken JSON object: {error.msg} (column {error.colno}); a line starting with "
            "'{' is read as JSON (give text that starts with a brace as {\"text\": ...})"
        ) from None
    if not isinstance(value, dict):  # `{` then valid JSON that is not an object cannot happen; be sure
        raise ValueError("a JSON line must be an object")
    return check_json_fields(value) if check else value


def _refuse_json_array(stripped: str) -> None:
    """A line that is a whole JSON array (`["a fine film", 1]`) is a record written the wrong way,
    not prose: refused as the dataset readers refuse it. Text that merely starts with `[`
    (`[Laughter] a fine film`) does not parse as JSON and stays text."""
    if not stripped.endswith("]"):
        return
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):  # not JSON: text that starts with a bracket
        return
    if isinstance(value, list):
        raise ValueError(
            f"a JSON array ({len(value)} items), not an object or text: give a record as "
            '{"text": ...} (or {"words": [...]}), or text that starts with a bracket as {"text": ...}'
        )


def json_or_text(line: str, keys: Sequence[str] = ("text", "sentence")) -> str:
    """A line as the runtime reads it: a JSON object with one of `keys`, or else the plain text itself.

    A line that starts with `{` is taken as JSON (see `json_object`).
    """
    value = json_object(line, check=False)
    if value is None:
        return line
    wanted = ", ".join(map(repr, keys))
    if not any(key in value for key in keys):
        if "words" in value:  # whatever its words: `{"words": "abc"}` was told to make them a list
            either = " or ".join(map(repr, keys))
            raise ValueError(f"this model reads a text (field {either}), not tokens ('words'): give the text")
        raise ValueError(f"JSON line needs one of the fields {wanted}")
    check_json_fields(value)
    key = next(key for key in keys if key in value)
    if not isinstance(value[key], str):
        raise ValueError(f"field {key!r} must be a string, got {_kind(value[key])}")
    return value[key]
