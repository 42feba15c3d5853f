"""Plain `allennlp predict` with green_nlp's predictors, per-line robust.

AllenNLP's `_PredictManager` reads the input in text mode and batches lines through
`predictor.load_line` / `predict_batch_json`: one line that is not UTF-8, not readable or that the
model fails on ends the run, and every later line is lost. `apply()` makes the manager send a
green_nlp predictor's run (without `--use-dataset-reader`) through `green_nlp.line_stream`'s
`LineStreamer`, the loop `allennlp green-predict` uses, so that:

- every good line's output is written as AllenNLP writes it (the output file, and the console
  unless `--silent`), in input order;
- each bad line becomes the predictor's own error record, `predictor.dump_line({"error": why,
  "line": N})`, at its place in the output (`# line = N` / `# error = why` in the parser's CoNLL-U, a JSON
  object with `error` and `line` in the JSON outputs), and a `file:line: why` warning on stderr;
- line numbers are those of the file (blank lines count; blank lines give no output, as before);
- the parser's CoNLL-U sentence blocks open with `# sent_id = N` (`N-1`, `N-2`... for a line of
  several sentences) and `# line = N`, as `allennlp green-predict` writes them: UD's validator
  requires a unique `sent_id`, and each block says which input line it came from.

A file whose first line is a CoNLL-U row or sentence comment is refused whole, before any line is
predicted, naming `--use-dataset-reader` for the parser (every row would fail alone; a classifier
would classify each row as a text). Standard input (`-`) and .gz/.bz2/.xz files stream the same
way. Other predictors and
`--use-dataset-reader` keep AllenNLP's own behaviour. The patch is narrow and idempotent: `apply()`
returns True the first time, False after.
"""

import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

from allennlp.common.util import JsonDict

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

logger = logging.getLogger(__name__)

_PATCHED = "_green_nlp_per_line"


class _Input:
    """A loaded line, its physical line number and its JSON as AllenNLP echoes it to the console."""

    __slots__ = ("json", "number", "echo")

    def __init__(self, json_dict: JsonDict) -> None:
        self.json, self.number, self.echo = json_dict, 0, ""


class _Text(str):
    """A dumped output that still knows its line number and input (for the in-order writer)."""

    number: int
    echo: Optional[str]


class _InOrder:
    """Receives the streamer's outputs and its `{file, line, error}` records and hands them to the
    manager in line order.

    The streamer reports a line it cannot read as soon as it meets it, before the outputs of the
    earlier lines of its batch; it flushes the output after each batch, by which time every line
    read so far has its output or its error, so sorting what is pending by line number then gives
    the file's order.
    """

    def __init__(self, manager: Any) -> None:
        self._manager = manager
        self._pending: list[tuple[int, str, Optional[str]]] = []
        self._index = 0

    def write(self, text: str) -> None:  # a good line's output (dumped by `_model`'s dump)
        self._pending.append((getattr(text, "number", 0), str(text), getattr(text, "echo", None)))

    def write_error(self, record_json: str) -> None:  # the streamer's `errors` stream
        record = json.loads(record_json)
        dumped = self._manager._predictor.dump_line({"error": record["error"], "line": record["line"]})
        self._pending.append((record["line"], dumped, None))

    def flush(self) -> None:
        for _, text, echo in sorted(self._pending, key=lambda entry: entry[0]):
            self._manager._maybe_print_to_console_and_file(self._index, text, echo)
            self._index += 1
        self._pending = []
        if self._manager._output_file is not None:
            self._manager._output_file.flush()


class _ErrorStream:
    def __init__(self, sink: _InOrder) -> None:
        self.write = sink.write_error


def _model(predictor: Any) -> Any:
    """`predictor_line_model` (the streamer's view of a predictor), with each input carrying its
    physical line number and echo, and each good output its line number."""
    from allennlp.common.checks import ConfigurationError

    from green_nlp.commands.green_predict import line_records, predictor_line_model
    from green_nlp.line_stream import LineModel

    base = predictor_line_model(predictor)

    def load(text: str) -> _Input:
        return _Input(base.load(text))

    def number_inputs(inputs: _Input, number: int) -> None:
        if base.number_inputs is not None:
            base.number_inputs(inputs.json, number)
        inputs.number = number
        inputs.echo = json.dumps(inputs.json)
        if isinstance(inputs.json, dict):
            inputs.json.setdefault("line", number)  # the parser's own error records and warnings name it

    def predict_batch(batch: list[_Input]) -> Sequence[Any]:
        results = base.predict_batch([inputs.json for inputs in batch])
        if len(results) != len(batch):
            raise ConfigurationError(f"the predictor returned {len(results)} results for {len(batch)} inputs")
        return [
            result if isinstance(result, dict) and "error" in result else (inputs.number, inputs.echo, result)
            for inputs, result in zip(batch, results)
        ]

    # the parser's CoNLL-U blocks open with `# sent_id` and `# line`, as `allennlp green-predict` writes them
    records = line_records(predictor) if getattr(predictor, "_output_format", None) == "conllu" else None

    def dump(numbered: tuple[int, str, JsonDict]) -> str:
        number, echo, result = numbered
        text = _Text(records.ok(number, result) if records is not None else base.dump(result))
        text.number, text.echo = number, echo
        return text

    return LineModel(
        load=load, predict_batch=predict_batch, dump=dump, fatal_errors=base.fatal_errors, number_inputs=number_inputs
    )


def _green_predictor(predictor: Any) -> bool:
    from green_nlp.predictors import DependencyParserPredictor, SentenceTaggerPredictor, TextClassifierPredictor

    return isinstance(predictor, (DependencyParserPredictor, SentenceTaggerPredictor, TextClassifierPredictor))


def _streamable_input(input_file: str) -> Optional[Path]:
    """The input as a path the streamer reads as bytes (`-` for stdin; compressed files are
    decompressed as they are read), or None when it is not a file."""
    from green_nlp.line_stream import STDIN

    if input_file == "-":
        return STDIN
    from allennlp.common.file_utils import cached_path

    path = Path(cached_path(input_file))
    return path if path.is_file() else None


def conllu_refusal(predictor: Any, path: Path) -> Optional[str]:
    """Why a file that starts as CoNLL-U is refused whole, before any line is predicted (read as
    text, the parser gave an error record for every row and a classifier classified each row), or
    None for any other input (standard input is not read ahead)."""
    from green_nlp.line_stream import STDIN
    from green_nlp.predictors import DependencyParserPredictor
    from green_nlp.runtime.line_inputs import CONLLU_TEXTS_REFUSAL, file_starts_as_conllu

    if path == STDIN or not file_starts_as_conllu(path):
        return None
    if isinstance(predictor, DependencyParserPredictor):
        return "this looks like CoNLL-U, which predict reads as raw text or JSON lines only: add --use-dataset-reader"
    return CONLLU_TEXTS_REFUSAL


def run_per_line(manager: Any, path: Path) -> None:
    """One `_PredictManager` run through the streamer: outputs and error records in line order."""
    from green_nlp.line_stream import LineStreamer

    sink = _InOrder(manager)
    try:
        LineStreamer(_model(manager._predictor), manager._batch_size).run(
            path,
            sink,  # type: ignore[arg-type]  # duck-typed: write() and flush() are all it uses
            progress=False,
            errors=_ErrorStream(sink),  # type: ignore[arg-type]  # the same
        )
        sink.flush()  # bad lines after the last batch
    finally:
        if manager._output_file is not None:
            manager._output_file.close()


def _refuse(manager: Any, message: str) -> None:
    """End the run before any line is predicted, with `message` (the CLI's one-line error)."""
    from allennlp.common.checks import ConfigurationError

    if manager._output_file is not None:  # AllenNLP opened it; nothing was written
        manager._output_file.close()
    raise ConfigurationError(message)


def apply() -> bool:
    """Patch `_PredictManager.run` (once); True if this call patched it, False if it already was."""
    from allennlp.commands.predict import _PredictManager

    if getattr(_PredictManager.run, _PATCHED, False):
        return False
    original: Callable[[Any], None] = _PredictManager.run

    def run(self: Any) -> None:
        if self._input_file != "-" and Path(self._input_file).is_dir():  # AllenNLP's open() ended in a traceback
            _refuse(self, f"{self._input_file} is a folder, not an input file: give a file, or - for standard input")
        path = None
        if self._dataset_reader is None and _green_predictor(self._predictor):
            path = _streamable_input(self._input_file)
        if path is None:
            original(self)
            return
        refusal = conllu_refusal(self._predictor, path)
        if refusal is not None:
            _refuse(self, f"{self._input_file}: {refusal}")
        run_per_line(self, path)

    run.__doc__ = original.__doc__
    setattr(run, _PATCHED, True)
    setattr(run, "original", original)
    _PredictManager.run = run  # type: ignore[method-assign]
    return True


def is_applied() -> bool:
    from allennlp.commands.predict import _PredictManager

    return bool(getattr(_PredictManager.run, _PATCHED, False))
