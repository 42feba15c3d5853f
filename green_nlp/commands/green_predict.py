"""`allennlp green-predict`: `allennlp predict` for large line-based files.

What it adds to `allennlp predict`: the input is streamed (one batch in memory at a time, never
the whole file); a progress bar; every input line gets exactly one output record carrying its line
number (`"line": n` in JSON, `# line = n` in CoNLL-U), a line that cannot be processed (blank, not
UTF-8, not the JSON the predictor expects, or the model fails on it) an error record in its place,
reported as `file:line: why` too, while every other line is still predicted; `--fail-on-error`
exits with status 1 when any line failed or was blank; output order is input order; `--shard i/N` gives process
`i` of `N` one contiguous block of lines, so the N outputs concatenated in shard order
(`cat out.0 out.1 ...`) are the output of one unsharded run. `--ray [ADDRESS]` runs the batches on
a pool of Ray actors that each load the archive once, with the same output (docs/distributed.md).
"""

import argparse
import json
import logging
import sys
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any, Optional

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError, check_for_gpu
from allennlp.common.util import JsonDict
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.distributed_ray.options import RayOptions, add_ray_arguments, ray_options
from green_nlp.line_stream import (  # noqa: F401
    STDIN,
    DamagedInput,
    LineModel,
    LineRecords,
    LineStreamer,
    UsageError,
    after_broken_pipe,
    check_distinct,
    check_input,
    check_output,
    comment_block,
    count_lines,
    is_stream,
    json_error,
    json_record,
    line_count,
    open_text_output,
    read_lines,
    shard_bounds,
    with_line_comment,
)
from green_nlp.line_stream import parse_shard as _parse_shard

logger = logging.getLogger(__name__)


def predictor_line_model(predictor: Predictor) -> LineModel[JsonDict, JsonDict]:
    """A predictor as the streamer sees it: its own `load_line`, batched prediction and `dump_line`,
    and one record per input line (see `line_records`)."""

    def number_inputs(inputs: JsonDict, number: int) -> None:
        if isinstance(inputs, dict) and "line" in inputs:
            inputs["line"] = number  # predictors that number lines themselves count only what they saw

    return LineModel(
        load=predictor.load_line,
        predict_batch=predictor.predict_batch_json,
        dump=predictor.dump_line,
        fatal_errors=(ConfigurationError,),
        number_inputs=number_inputs,
        records=line_records(predictor),
        warning=_warning,
    )


def line_records(predictor: Predictor) -> LineRecords[JsonDict]:
    """JSON outputs get `"line": n` first and failed or blank lines `{"line": n, "error": why}`; the
    parser's CoNLL-U opens each sentence block with `# sent_id` and `# line = n`, and a failed line is the block
    `# line = n` / `# error = why`."""
    if getattr(predictor, "_output_format", "json") != "conllu":
        return LineRecords(ok=json_record, error=json_error)

    def ok(number: int, outputs: JsonDict) -> str:
        text = predictor.dump_line(outputs)
        return with_line_comment(number, [block for block in text.split("\n\n") if block.strip()], sent_ids=True)

    return LineRecords(ok=ok, error=comment_block)


def _warning(outputs: JsonDict) -> Optional[str]:
    """A classification without a known n-gram is counted in the summary."""
    flagged = isinstance(outputs, dict) and outputs.get("no_known_features") is True
    return "with no known n-gram" if flagged else None


class BulkPredictor(LineStreamer[JsonDict, JsonDict]):
    """
    Feeds lines to a `Predictor` in batches and writes its outputs in input order.

    # Parameters

    predictor : `Predictor`
        Any predictor; `load_line` turns a line into its JSON input, `dump_line` writes a result.
    batch_size : `int`, optional (default = `32`)
    """

    def __init__(self, predictor: Predictor, batch_size: int = 32) -> None:
        try:
            super().__init__(predictor_line_model(predictor), batch_size)
        except UsageError as error:
            raise ConfigurationError(str(error)) from None
        self.predictor = predictor


# ------------------------------------------------------------------------------ the command
@Subcommand.register("green-predict")
class GreenPredict(Subcommand):
    """`allennlp green-predict ARCHIVE INPUT --output-file OUT [--shard i/N] ...`"""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (__doc__ or "").split("\n\n", 1)[1].strip()
        subparser = parser.add_parser(
            self.name,
            description=description,
            help="Stream a large line-based file through a model, optionally sharded.",
        )
        subparser.add_argument("archive_file", type=str, help="the model.tar.gz to predict with")
        subparser.add_argument(
            "input_file", type=Path, help="one input per line (text or JSON, as the predictor reads); - for stdin"
        )
        subparser.add_argument("--output-file", type=Path, help="where to write the outputs (default: stdout)")
        subparser.add_argument(
            "--errors-file", type=Path, help="also write every failed line as JSON {file, line, error}"
        )
        subparser.add_argument(
            "--fail-on-error",
            action="store_true",
            help="exit with status 1 when any line failed or was blank (each still gets its error record)",
        )
        subparser.add_argument("--predictor", type=str, help="registered predictor name (default: the model's)")
        subparser.add_argument(
            "--predictor-args", type=str, default="", help="JSON object of extra predictor constructor arguments"
        )
        subparser.add_argument("--batch-size", type=int, default=32, help="lines per model call")
        subparser.add_argument(
            "--shard",
            type=str,
            default="0/1",
            help="i/N: predict only the i-th of N contiguous blocks of lines (i from 0)",
        )
        subparser.add_argument("--cuda-device", type=int, default=-1, help="GPU id, -1 for CPU")
        subparser.add_argument("-o", "--overrides", type=str, default="", help="JSON overrides of the archive's config")
        subparser.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
        subparser.add_argument(
            "--silent",
            action="store_true",
            help="no AllenNLP INFO log on stderr (warnings, errors and the summary stay; "
            "green_nlp.patches.quiet_logging reads it, as for allennlp predict --silent)",
        )
        add_ray_arguments(subparser)
        subparser.set_defaults(func=_bulk_predict_from_args)
        return subparser


def build_predictor(
    archive_file: str,
    predictor_name: Optional[str] = None,
    predictor_args: str = "",
    cuda_device: int = -1,
    overrides: str = "",
) -> Predictor:
    check_for_gpu(cuda_device)
    try:
        extra_args: dict[str, Any] = json.loads(predictor_args) if predictor_args else {}
    except json.JSONDecodeError as error:
        raise ConfigurationError(f"--predictor-args is not a JSON object: {error}") from None
    archive = load_archive(archive_file, cuda_device=cuda_device, overrides=overrides)
    return Predictor.from_archive(archive, predictor_name, extra_args=extra_args)  # type: ignore[arg-type]  # None: the model's


def parse_shard(text: str) -> tuple[int, int]:
    """`"i/N"` -> (i, N); a bad value is a ConfigurationError, as AllenNLP reports settings."""
    try:
        return _parse_shard(text)
    except UsageError as error:
        raise ConfigurationError(str(error)) from None


def predictor_model(
    archive_file: str,
    predictor_name: Optional[str],
    predictor_args: str,
    cuda_device: int,
    overrides: str,
    threads: Optional[int] = None,
) -> LineModel[JsonDict, JsonDict]:
    """The archive's predictor as a `LineModel`; built on each Ray actor (hence a plain function)."""
    import torch

    import green_nlp

    green_nlp.register()  # a fresh actor process has not imported the plugin
    if threads:
        torch.set_num_threads(threads)
    return predictor_line_model(build_predictor(archive_file, predictor_name, predictor_args, cuda_device, overrides))


def _bulk_predict_from_args(args: argparse.Namespace) -> None:
    shard = parse_shard(args.shard)
    try:
        check_input(args.input_file)
        if args.output_file is not None and str(args.output_file) == "-":  # standard output
            args.output_file = None
        for path in (args.output_file, args.errors_file):
            check_output(path)
        outputs = {"--output-file": args.output_file, "--errors-file": args.errors_file}
        check_distinct(args.input_file, outputs, stdout_option="--output-file")
        on_ray = ray_options(args)
        if is_stream(args.input_file) and (on_ray or shard != (0, 1)):
            raise UsageError("standard input or a pipe cannot be sharded or sent to Ray: give a file")
    except ValueError as error:  # UsageError is one
        raise ConfigurationError(str(error)) from None
    bulk = (
        None
        if on_ray
        else BulkPredictor(
            build_predictor(args.archive_file, args.predictor, args.predictor_args, args.cuda_device, args.overrides),
            args.batch_size,
        )
    )
    try:
        with ExitStack() as stack:
            output = stack.enter_context(open_text_output(args.output_file)) if args.output_file else sys.stdout
            errors = stack.enter_context(open(args.errors_file, "w", encoding="utf-8")) if args.errors_file else None
            if bulk is not None:
                report = bulk.run(args.input_file, output, shard, progress=not args.no_progress, errors=errors)
            else:
                assert on_ray is not None  # one of the two was built above
                report = _run_on_ray(args, on_ray, output, shard, errors)
            output.flush()  # a full disk shows here, not in the interpreter's exit
    except DamagedInput as error:  # the lines before the damage were written
        if error.report is not None:
            print(error.report.summary("green-predict", args.input_file, shard), file=sys.stderr)
        raise ConfigurationError(str(error)) from None
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly, as a shell pipeline expects
        sys.exit(after_broken_pipe())
    except OSError as error:  # the output cannot be opened or written
        raise ConfigurationError(f"cannot write the output: {error}") from None
    print(report.summary("green-predict", args.input_file, shard), file=sys.stderr)
    if getattr(args, "fail_on_error", False) and report.failed:
        print(f"green-predict: {line_count(report.failed)} failed or were blank (--fail-on-error)", file=sys.stderr)
        sys.exit(1)


def _run_on_ray(args: argparse.Namespace, options: RayOptions, output: Any, shard: tuple[int, int], errors: Any) -> Any:
    """The same run on a pool of Ray actors, each loading the archive once (on its GPU with
    `--ray-gpus-per-actor`, which Ray shows the actor as device 0)."""
    from green_nlp.distributed_ray.lines import stream_lines

    if args.batch_size < 1:
        raise ConfigurationError(f"--batch-size must be positive, got {args.batch_size}")
    archive = str(Path(args.archive_file).resolve()) if Path(args.archive_file).exists() else args.archive_file
    make_model = partial(
        predictor_model,
        archive,
        args.predictor,
        args.predictor_args,
        0 if options.gpus_per_actor > 0 else -1,
        args.overrides,
        max(1, int(options.cpus_per_actor)),
    )
    return stream_lines(
        make_model,
        args.input_file,
        output,
        options,
        args.batch_size,
        shard,
        progress=not args.no_progress,
        errors=errors,
    )
