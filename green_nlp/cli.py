"""`green-nlp`: ready models without AllenNLP, and AllenNLP with green_nlp from any folder.

    green-nlp parse MODEL input.txt -o out.conllu     # the ONNX runtime: no torch, starts fast
    green-nlp tag MODEL input.txt -o out.jsonl
    green-nlp classify MODEL input.txt -o out.jsonl
    green-nlp serve MODEL [MODEL ...] --port 8080   # HTTP API and a page, micro-batched (docs/serving.md)
    green-nlp models                                 # the shipped models
    green-nlp configs                                # where the training configs are installed
    green-nlp train CONFIG -s DIR ...                # any allennlp subcommand, green_nlp registered
    green-nlp green-predict ARCHIVE input.txt ...    # green_nlp's own subcommands too

`allennlp green-predict` only works where AllenNLP finds the plugin (`.allennlp_plugins` in the
working directory or `~/.allennlp/plugins`), because AllenNLP picks the subcommand before it reads
`--include-package`; `green-nlp` registers green_nlp first, so it works in every folder.
"""

import argparse
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any, NoReturn, Optional

from green_nlp.cli_allennlp import run_allennlp
from green_nlp.cli_commands import RUNTIME_COMMANDS, unknown_command, version_line
from green_nlp.runtime import DEFAULT_THREADS
from green_nlp.runtime.errors import InputKindError, ModelFolderError
from green_nlp.runtime.length_batches import DEFAULT_SORT_WINDOW


def file_path(value: str) -> Path:
    """A file argument; an empty one is refused by argparse (Path('') is the current folder, which
    the messages then called '.')."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty file name: give a file")
    return Path(value)


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if sys.stderr is None:  # started with 2>&-: messages go nowhere rather than end the run
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (open for the process's life)
    if args and args[0] in ("--version", "-V"):  # AllenNLP's --version would print AllenNLP's
        print(version_line())
        return
    unknown = unknown_command(args[0]) if args and not args[0].startswith("-") else None
    if unknown:
        print(unknown, file=sys.stderr)
        sys.exit(2)
    if args and args[0] == "serve":  # its own options; see green_nlp/serve
        from green_nlp.serve import main as serve

        sys.exit(serve(args[1:]))
    if args and args[0] in RUNTIME_COMMANDS:
        if argv is None and args[0] in ("parse", "tag", "classify"):
            _keep_torch_out(args[0])
            if args[0] != "classify":  # the DAN needs no spaCy
                from green_nlp.runtime.spacy_cli_deferral import defer_spacy_cli

                defer_spacy_cli()  # a quarter of a CPU-second of start-up: see the module
        sys.exit(run_runtime(args))
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        print("AllenNLP subcommands: green-nlp train|evaluate|predict|green-predict|green-export|... --help")
        return
    run_allennlp(args)


# ------------------------------------------------------------------------------ runtime side
def _keep_torch_out(command: str) -> None:
    """The ONNX commands never need torch, but spaCy's thinc imports it wherever it is installed (the
    training environment: seconds of start-up and hundreds of MB); refuse it as `green-nlp serve` does. Only
    for the command itself (`main()` from the console script): a program calling `main(argv)` keeps
    its imports."""
    from green_nlp.serve import import_guard

    if not import_guard.heavy_modules():
        import_guard.install(f"green-nlp {command}")


def _sentence_limit(text: str) -> int:
    from green_nlp.runtime.input_checks import sentence_limit

    try:
        return sentence_limit(int(text))
    except ValueError as error:  # int()'s, or the range's
        problem = str(error).removeprefix("max_sentence_length ")
        raise argparse.ArgumentTypeError(
            problem if problem.startswith("must be") else f"must be a whole number, got {text!r}"
        ) from None


class OneLineErrors(argparse.ArgumentParser):
    """An option error as one line naming the command's help, as the commands' other refusals are
    (`--batch-size 0`); argparse printed the whole usage first, pages of it for parse."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _runtime_parser() -> argparse.ArgumentParser:
    from green_nlp.runtime.classifier import ENGINES, NO_FEATURES_SETTINGS  # numpy: only for the runtime commands

    parser = OneLineErrors(prog="green-nlp", description="Run an exported green model (no torch).")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, help_text, formats in (
        ("parse", "dependency-parse raw text, one sentence per line", ("conllu", "json")),
        ("tag", "tag entities or chunks in raw text, one sentence per line", ("json", "conll")),
        ("classify", "classify texts, one per line", ("json",)),
    ):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("model", help="a shipped model's name (see `green-nlp models`) or an exported folder")
        command.add_argument(
            "input_file", type=file_path, help='one text per line (or a JSON object with "text"); - for standard input'
        )
        command.add_argument("-o", "--output-file", type=file_path, help="where to write the output (default: stdout)")
        command.add_argument("--format", choices=formats, default=formats[0], help="output format")
        command.add_argument(
            "--errors-file", type=file_path, help="also write every failed line as JSON {file, line, error}"
        )
        command.add_argument(
            "--fail-on-error",
            action="store_true",
            help="exit with status 1 when any line failed or was blank (each still gets its error record)",
        )
        if name in ("parse", "tag"):
            command.add_argument(
                "--split-sentences",
                action="store_true",
                help="let the sentence splitter cut a line into several sentences (default: a line is one "
                "sentence); the sentences of a line stay in that line's one record",
            )
            command.add_argument(
                "--max-sentence-length",
                type=_sentence_limit,
                default=None,
                help=f"longest sentence in words the {'parser' if name == 'parse' else 'tagger'} takes (default: "
                "the model folder's, else 1000); a longer one gets an error record",
            )
        else:
            command.add_argument(
                "--split-sentences",
                action="store_true",
                help="classify each sentence of a line and average their logits: for lines longer than a "
                "sentence, such as whole reviews (the shipped model learnt from sentences); default: a line "
                "is one text",
            )
            command.add_argument(
                "--engine",
                choices=ENGINES,
                default="onnxruntime",
                help="onnxruntime (default) or numba: the same int8 graph compiled by numba, several times "
                "faster per text at small batches but about half a second slower to start (pip install "
                "'green_nlp[numba]'); for files, not one-off lines",
            )
            command.add_argument(
                "--no-known-features",
                choices=NO_FEATURES_SETTINGS,
                default="flag",
                help='a text without a single known n-gram: "flag" gives its label (the model\'s prior) with '
                '"no_known_features": true and counts it in the summary; "error" gives an error record',
            )
        command.add_argument("--batch-size", type=int, default=32, help="sentences (classify: texts) per model call")
        command.add_argument(
            "--sort-window",
            type=int,
            default=DEFAULT_SORT_WINDOW,
            help="lines read at a time; parse and tag sort their sentences by length before batching "
            "(less padding; output stays in input order). --sort-window equal to --batch-size: file order",
        )
        command.add_argument(
            "--precision",
            choices=("auto", "fp32", "int8"),
            default="auto",
            help="which exported graph to run (auto: fp32 where the folder has it)",
        )
        command.add_argument(
            "--threads",
            type=int,
            default=None,
            help="CPU threads for onnxruntime (default 1, or --ray-cpus-per-actor on Ray: a second thread "
            "costs more CPU time than it saves wall time on these models' batches)",
        )
        command.add_argument("--shard", default="0/1", help="i/N: only the i-th of N contiguous blocks of lines")
        command.add_argument(
            "--no-progress", action="store_true", help="no progress bar (none is shown off a terminal)"
        )
        from green_nlp.distributed_ray.options import add_ray_arguments  # light: Ray is imported only with --ray

        add_ray_arguments(command)
    commands.add_parser(
        "models",
        help="list the shipped models",
        description="List the models green-nlp can load by name: each one's name, whether it loads, and what it is.",
    )
    commands.add_parser(
        "configs",
        help="list the training configs that came with the package",
        description="List the training configs (Jsonnet) installed with the package, for allennlp train.",
    )
    # listed for --help and the usage line only: `main` hands `serve` to green_nlp.serve before this parser
    commands.add_parser("serve", help="serve models over HTTP (green-nlp serve --help)", add_help=False)
    return parser


def _records(command: str, output_format: str) -> Any:
    """One record per input line, carrying its line number: JSON lines with "line" first, or
    CoNLL-style blocks opened by `# line = n` (CoNLL-U: `# sent_id` first); a failed or blank line's
    record says why."""
    from green_nlp import line_stream

    if command == "classify":  # the same bytes as json_record, several times cheaper per text
        return line_stream.LineRecords(ok=lambda number, result: result.json_line(number), error=line_stream.json_error)
    if output_format == "json":
        return line_stream.LineRecords(
            ok=lambda number, result: line_stream.json_record(number, result.to_json()),
            error=line_stream.json_error,
        )

    def blocks(result: Any) -> list[str]:
        if output_format == "conllu":
            return [sentence.to_conllu() for sentence in result.sentences]
        # conll: the tagger's word<TAB>tag lines, a blank line between sentences
        return [block for block in result.to_conll().split("\n\n") if block.strip()]

    return line_stream.LineRecords(
        ok=lambda number, result: line_stream.with_line_comment(
            number, blocks(result), sent_ids=output_format == "conllu"
        ),
        error=line_stream.comment_block,
    )


def _batch_call(
    nlp: Any, command: str, batch_size: int, no_known_features: str = "flag"
) -> Callable[[list[Any]], list[Any]]:
    """The streamer hands over one sort window of lines; the runtime sorts and batches inside it."""
    from green_nlp.runtime.line_inputs import Tokens, predict_in_order

    many = {"parse": "parse_many", "tag": "tag_many", "classify": "classify_many"}[command]
    if not hasattr(nlp, many):
        from green_nlp.line_stream import UsageError

        family = getattr(nlp, "family", "other")
        right = {"parser": "parse", "tagger": "tag", "classifier": "classify"}.get(family, "parse, tag or classify")
        raise UsageError(f"this model is a {family}, which does not {command}: use green-nlp {right}")
    method = getattr(nlp, many)
    if command == "classify":
        from green_nlp.runtime.classifier import no_features_message

        def classify(texts: list[str]) -> list[Any]:
            results = list(method(texts, batch_size=batch_size))  # flagged; turned into errors here when asked
            if no_known_features == "error":
                flagged = [getattr(r, "no_known_features", False) for r in results]  # an InputFailure has none
                return [{"error": no_features_message()} if f else r for r, f in zip(results, flagged)]
            return results

        return classify

    def on_texts(texts: list[str]) -> list[Any]:
        return list(method(texts, batch_size=batch_size))

    unused_upos = [command == "parse" and getattr(getattr(nlp, "inputs", None), "upos", True) is None]

    def on_tokens(sentences: list[Tokens]) -> list[Any]:
        if command == "tag":
            return [nlp.tag_tokens(sentence.words) for sentence in sentences]
        from green_nlp.runtime.parser_results import ParsedDoc

        if unused_upos[0] and any(sentence.upos is not None for sentence in sentences):
            unused_upos[0] = False  # said once a run
            print(
                'green-nlp parse: this model reads words only and predicts its own UPOS: the "upos" of '
                "the input lines are not used, and the output's UPOS column is the model's",
                file=sys.stderr,
            )

        trees = nlp.parse_sentences([(s.words, s.upos) for s in sentences], batch_size=batch_size)
        return [ParsedDoc([tree]) if tree.error is None else tree for tree in trees]  # InputFailure in place

    return lambda inputs: predict_in_order(inputs, on_texts, on_tokens)


def _no_features_warning() -> Callable[[Any], Optional[str]]:
    """What the summary counts about a classification: one without a known n-gram (the import
    made once, not once a line)."""
    from green_nlp.runtime.classifier import NO_FEATURES_WARNING

    def warning(result: Any) -> Optional[str]:
        return NO_FEATURES_WARNING if getattr(result, "no_known_features", False) else None

    return warning


# what `green-nlp parse` counts without --split-sentences: lines its sentencizer would have cut
SEVERAL_SENTENCES_WARNING = (
    "read as one sentence where the sentence splitter finds several (--split-sentences parses each)"
)


def _several_sentences_warning(segmenter: Any) -> Callable[[Any], Optional[str]]:
    """What the summary counts about a parse read one sentence a line: a line that holds several. A
    paragraph parsed as one sentence loses about 13 LAS points on UD English-EWT
    (benchmarks/results/parser_raw_paragraphs.md), and nothing else would tell the user."""

    def warning(result: Any) -> Optional[str]:
        sentences = getattr(result, "sentences", None)
        text = sentences[0].text if sentences and len(sentences) == 1 else None
        return SEVERAL_SENTENCES_WARNING if text and segmenter.holds_several_sentences(text) else None

    return warning


def runtime_line_model(
    command: str,
    model: str,
    precision: str,
    threads: Optional[int],
    output_format: str,
    batch_size: int = 32,
    split_sentences: bool = False,
    no_known_features: str = "flag",
    max_sentence_length: Optional[int] = None,
    engine: str = "onnxruntime",
) -> Any:
    """An exported model as line_stream's `LineModel` (a plain function: `--ray` builds it on each
    actor). A line is one sentence (parse|tag) or one text (classify) unless `split_sentences`."""
    from green_nlp import line_stream
    from green_nlp.runtime import load
    from green_nlp.runtime.line_inputs import text_or_tokens

    nlp = load(model, precision=precision, threads=threads)
    if max_sentence_length is not None and hasattr(nlp, "max_sentence_length"):
        nlp.max_sentence_length = max_sentence_length
    segmenter = getattr(nlp, "segmenter", None)
    warning: Optional[Callable[[Any], Optional[str]]] = _no_features_warning() if command == "classify" else None
    if segmenter is not None:
        segmenter.split_sentences = split_sentences
        if command == "parse" and not split_sentences:
            warning = _several_sentences_warning(segmenter)
    if hasattr(nlp, "length_advice"):
        split = "" if split_sentences else "split a line of several sentences (--split-sentences), "
        nlp.length_advice = f"{split}cut the sentence into shorter ones, or raise the limit (--max-sentence-length)"
    elif command == "classify":
        nlp.split_sentences = split_sentences
        nlp.set_engine(engine)
    tally, note = _unknown_words(nlp) if command in ("parse", "tag") else (None, None)
    return line_stream.LineModel(
        load=line_stream.json_or_text if command == "classify" else text_or_tokens,
        predict_batch=_batch_call(nlp, command, batch_size, no_known_features),
        dump=lambda result: line_stream.json_record(0, result.to_json()),  # unused: `records` writes
        fatal_errors=(InputKindError,),
        abort_errors=(ModelFolderError,),
        records=_records(command, output_format),
        warning=warning,
        tally=tally,
        note=note,
    )


def _unknown_words(nlp: Any) -> tuple[Any, Any]:
    """The run's count of words unknown to a parser or tagger, and its note when most are (text in
    another language: see `green_nlp.runtime.unknown_words`)."""
    from green_nlp.runtime.unknown_words import UnknownWordTally, unknown_words_note

    inputs, segmenter = getattr(nlp, "inputs", None), getattr(nlp, "segmenter", None)
    if inputs is None or segmenter is None:
        return None, None
    language = segmenter.language
    return UnknownWordTally(inputs.words), lambda totals: unknown_words_note(totals, language)


def run_runtime(argv: list[str]) -> int:
    from green_nlp import line_stream

    args = _runtime_parser().parse_args(argv)
    if args.command in ("configs", "models"):
        return _listing(args.command)
    try:
        from green_nlp.distributed_ray.options import ray_options

        _check_files(args)  # before the model loads
        shard, on_ray = line_stream.parse_shard(args.shard), ray_options(args)
        if line_stream.is_stream(args.input_file) and (on_ray is not None or shard != (0, 1)):
            raise line_stream.UsageError("standard input or a pipe cannot be sharded or sent to Ray: give a file")
        for option, value in (("--batch-size", args.batch_size), ("--sort-window", args.sort_window)):
            if value < 1:
                raise line_stream.UsageError(f"{option} must be positive, got {value}")
        if not line_stream.is_stream(args.input_file):
            _refuse_conllu(args.input_file, args.command)
        threads = DEFAULT_THREADS if args.threads is None else args.threads
        model = runtime_line_model(*_model_args(args, threads))
        streamer = line_stream.LineStreamer(model, args.sort_window)
    except (line_stream.UsageError, FileNotFoundError, ValueError, ImportError) as error:  # ImportError: --engine numba
        print(f"green-nlp {args.command}: {error}", file=sys.stderr)
        return 2
    progress = not args.no_progress and sys.stderr.isatty()
    try:
        with _sigterm_as_interrupt():
            report = _stream(args, streamer, on_ray, shard, progress)
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (`Terminated`): say so, no traceback
        signal_name = "SIGTERM" if isinstance(stop, Terminated) else "Ctrl-C"
        print(
            f"green-nlp {args.command}: stopped by {signal_name}: the records written before it are whole; "
            "the lines after them were not predicted",
            file=sys.stderr,
        )
        return 128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)
    except (InputKindError, ModelFolderError) as error:  # no line would work: the model or its input kind
        print(f"green-nlp {args.command}: {error}", file=sys.stderr)
        return 2
    except line_stream.DamagedInput as error:  # the lines before the damage were written
        report = error.report
        if report is not None and (report.predicted or report.errors or report.blank):  # not "0 lines predicted"
            print(report.summary(f"green-nlp {args.command}", args.input_file, shard), file=sys.stderr)
        print(f"green-nlp {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly, as a shell pipeline expects
        return line_stream.after_broken_pipe()
    except OSError as error:  # the output cannot be opened or written (no space, read-only, no permission)
        print(f"green-nlp {args.command}: cannot write the output: {error}", file=sys.stderr)
        return 2
    print(report.summary(f"green-nlp {args.command}", args.input_file, shard), file=sys.stderr)
    note = streamer.model.note(report.tallies) if streamer.model.note is not None else None
    if note:
        print(f"green-nlp {args.command}: {note}", file=sys.stderr)
    if args.fail_on_error and report.failed:
        print(
            f"green-nlp {args.command}: {line_stream.line_count(report.failed)} failed or were blank "
            "(--fail-on-error): exit status 1",
            file=sys.stderr,
        )
        return 1
    return 0


def _check_files(args: argparse.Namespace) -> None:
    """Refuse an input or output that cannot work (missing, a folder, closed, one file both read and
    written) before any model loads; `-o -` is standard output."""
    from green_nlp import line_stream

    line_stream.check_input(args.input_file)
    if args.output_file is not None and str(args.output_file) == "-":
        args.output_file = None
    if args.input_file == line_stream.STDIN and sys.stdin is None:
        raise line_stream.UsageError("standard input is closed (<&-): give an input file")
    if args.output_file is None and sys.stdout is None:
        raise line_stream.UsageError("standard output is closed (>&-): give -o FILE")
    for path in (args.output_file, args.errors_file):
        line_stream.check_output(path)
    outputs = {"-o": args.output_file, "--errors-file": args.errors_file}
    line_stream.check_distinct(args.input_file, outputs, stdout_option="-o")


def _listing(command: str) -> int:
    """`green-nlp configs` (the installed training configs) or `models` (the shipped models)."""
    if command == "configs":
        folder = configs_folder()
        print(f"# {folder}")
        for path in sorted(folder.rglob("*.jsonnet")):
            print(path.relative_to(folder))
        return 0
    from green_nlp.runtime import folder_loads
    from green_nlp.runtime.model_folder import available_models, model_folders

    folders, summaries = model_folders(), available_models()
    for name, summary in summaries.items():  # state: "ok", or "broken: " and why it would not load
        state = folder_loads(folders[name])
        if summary.startswith("unreadable: ") and state.startswith("broken: "):
            summary = "unreadable"  # the state gives the reason; once is enough
        print(f"{name}\t{state}\t{summary}")
    return 0


def _stream(args: argparse.Namespace, streamer: Any, on_ray: Any, shard: tuple[int, int], progress: bool) -> Any:
    """Open the outputs and stream the input through the model, here or on Ray actors."""
    from green_nlp.line_stream import open_text_output

    with ExitStack() as stack:
        output: Any = NamedWrites(sys.stdout, "standard output")
        errors: Any = None
        # each file is closed by its NamedWrites (stack.callback), so that a failing close names it
        if args.output_file:
            output = NamedWrites(open_text_output(args.output_file), str(args.output_file))
            stack.callback(output.close)
        if args.errors_file:
            errors = NamedWrites(open_text_output(args.errors_file), str(args.errors_file))
            stack.callback(errors.close)
        if on_ray is None:
            report = streamer.run(args.input_file, output, shard, progress=progress, errors=errors)
        else:  # the same stream on Ray actors, each loading the model once (docs/distributed.md)
            from functools import partial

            from green_nlp.distributed_ray.lines import stream_lines

            make_model = partial(
                runtime_line_model, *_model_args(args, args.threads or max(1, int(on_ray.cpus_per_actor)))
            )
            report = stream_lines(
                make_model, args.input_file, output, on_ray, args.sort_window, shard, progress=progress, errors=errors
            )
        output.flush()  # a full disk shows here, not in the interpreter's exit
        if errors is not None:
            errors.flush()
    return report


class Terminated(KeyboardInterrupt):
    """SIGTERM during a run: stops it as Ctrl-C does (the outputs closed, a message, no traceback)."""


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM raises `Terminated` while the block runs (in the main thread; elsewhere, as before)."""

    def stop(signum: int, frame: Any) -> None:
        raise Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: signals cannot be handled here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class NamedWrites:
    """An output whose write errors name it: a full disk or a failing device shows in `write` or
    `flush` as errno's words alone (`[Errno 28] No space left on device`), which does not say
    which of the outputs failed."""

    def __init__(self, stream: Any, name: str) -> None:
        self._stream, self._name = stream, name

    def write(self, text: str) -> int:
        return int(self._named(lambda: self._stream.write(text)))

    def writelines(self, lines: Iterable[str]) -> None:
        self._named(lambda: self._stream.writelines(lines))

    def flush(self) -> None:
        self._named(self._stream.flush)

    def close(self) -> None:
        """Close the file; a close after a failed write or flush tries to write the buffer again and
        fails the same way, which would replace the named error with a bare one."""
        try:
            self._named(self._stream.flush)
        except OSError:
            with suppress(OSError):  # the same buffer failing again: the flush's named error is raised
                self._stream.close()
            raise
        self._named(self._stream.close)

    def _named(self, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OSError(error.errno, error.strerror, self._name) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _refuse_conllu(path: Path, command: str) -> None:
    """A file that starts as CoNLL-U is refused before the model loads (exit 2): read as raw text,
    every row would fail (parse, tag: issue 44) or be classified as a text of its own (classify)."""
    from green_nlp import line_stream
    from green_nlp.runtime.line_inputs import CONLLU_REFUSAL, CONLLU_TEXTS_REFUSAL, file_starts_as_conllu

    if file_starts_as_conllu(path):
        raise line_stream.UsageError(f"{path}: {CONLLU_TEXTS_REFUSAL if command == 'classify' else CONLLU_REFUSAL}")


def _model_args(args: argparse.Namespace, threads: Optional[int]) -> tuple[Any, ...]:
    """`runtime_line_model`'s arguments from the command line."""
    return (
        args.command,
        args.model,
        args.precision,
        threads,
        args.format,
        args.batch_size,
        getattr(args, "split_sentences", False),
        getattr(args, "no_known_features", "flag"),
        getattr(args, "max_sentence_length", None),
        getattr(args, "engine", "onnxruntime"),
    )


def configs_folder() -> Path:
    """`training_configs/` of a clone, or the copy an installed package carries."""
    import green_nlp

    package = Path(green_nlp.__file__).resolve().parent
    for folder in (package / "training_configs", package.parent / "training_configs"):
        if folder.is_dir():
            return folder
    raise FileNotFoundError("no training_configs folder beside green_nlp: reinstall the package")


if __name__ == "__main__":
    main()
