"""`green-nlp SUBCOMMAND ...` for AllenNLP's subcommands and green_nlp's own: AllenNLP's entry point
with green_nlp registered first, a predict that would overwrite its input refused, and a setting
AllenNLP rejects reported in one line instead of a traceback."""

import os
import pickle
import re
import sys
from pathlib import Path
from typing import Optional


def _predict_overwrites(argv: list[str]) -> Optional[str]:
    """Why `allennlp predict ... --output-file OUT` would empty a file it still has to read (OUT is
    its input file or archive), or None. AllenNLP opens OUT for writing before it reads the input."""
    from green_nlp.line_stream import same_file

    outputs = {i: arg.split("=", 1)[1] for i, arg in enumerate(argv) if arg.startswith("--output-file=")}
    outputs.update({i + 1: argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--output-file"})
    read = [arg for i, arg in enumerate(argv[1:], start=1) if i not in outputs and Path(arg).is_file()]
    for output in outputs.values():
        for arg in read:
            if same_file(Path(arg), Path(output)):
                return f"--output-file {output} is {arg}, which predict reads: writing there would overwrite it"
        if "-" in argv[1:] and same_file(0, Path(output)):  # `- < file`
            return f"--output-file {output} is the file standard input reads: writing there would overwrite it"
    return None


TRACEBACK_VARIABLE = "GREEN_NLP_TRACEBACK"


def _predictor_args_problem(argv: list[str]) -> Optional[str]:
    """Why `--predictor-args` is not a JSON object (AllenNLP's predict would end in a JSONDecodeError
    traceback), or None."""
    import json

    values = [arg.split("=", 1)[1] for arg in argv if arg.startswith("--predictor-args=")]
    values += [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--predictor-args"]
    for value in values:
        try:
            parsed = json.loads(value)
        except ValueError as error:
            return f'--predictor-args is not JSON: {error} (e.g. --predictor-args \'{{"output_format": "json"}}\')'
        if not isinstance(parsed, dict):
            return f"--predictor-args must be a JSON object ({{...}}), got {value!r}"
    return None


# cached_path's FileNotFoundError for a config or archive path, which carries no `filename`
CACHED_PATH_MISSING = re.compile(r"file (?P<path>.+) not found")


def missing_file_message(error: FileNotFoundError) -> str:
    """The error, and what to do about it where `settings.missing_file_hint` knows (a path under
    GREEN_NLP_DATA, a relative path), unless the message says so already (green_nlp's readers do).
    A relative config path also gets where the configs are: `green-nlp configs` prints it."""
    from green_nlp.settings import DATA_ENV_VAR, missing_file_hint

    message = str(error)
    filename = error.filename
    if filename is None:
        missing = CACHED_PATH_MISSING.fullmatch(message)
        filename = missing.group("path") if missing else None
    if filename is None or DATA_ENV_VAR in message or "current folder" in message:
        return message
    hint = missing_file_hint(filename)
    if hint and str(filename).endswith(".jsonnet") and not Path(filename).expanduser().is_absolute():
        hint = hint[:-1] + "; `green-nlp configs` prints the training configs' folder and lists them)"
    return message + hint


def run_allennlp(argv: list[str]) -> None:
    """`allennlp ARGV...` with green_nlp registered first, so its subcommands exist in any folder."""
    sys.argv = ["green-nlp", *argv]
    overwritten = _predict_overwrites(argv) if argv and argv[0] == "predict" else None
    if overwritten:
        print(f"green-nlp predict: {overwritten}", file=sys.stderr)
        sys.exit(2)
    try:
        import allennlp  # noqa: F401
    except ModuleNotFoundError:  # `pip install .` installs the runtime only
        raise SystemExit(
            f"green-nlp {argv[0]}: this command needs the training stack (AllenNLP, torch), which this "
            "install does not have. The runtime commands are parse, tag, classify, serve, models and configs; "
            "to train or export, set up the full environment (bash scripts/setup_env.sh in a clone)"
        ) from None
    from green_nlp.patches import apply_one

    apply_one("nltk_download")  # before allennlp-models asks nltk for corpora (offline: 8 lines of errors)
    import allennlp.__main__  # noqa: F401  (AllenNLP's logging set-up, as `allennlp` does it)
    from allennlp.commands import main as allennlp_main
    from allennlp.common.util import install_sigterm_handler

    import green_nlp

    green_nlp.register()
    install_sigterm_handler()
    problem = _predictor_args_problem(argv)
    if problem:
        print(f"green-nlp {argv[0]}: {problem}", file=sys.stderr)
        sys.exit(2)
    try:
        allennlp_main(prog="green-nlp")
    except Exception as error:
        message = None if os.environ.get(TRACEBACK_VARIABLE) else one_line_message(error, argv)
        if message is None:
            raise
        print(f"green-nlp {argv[0]}: {message} ({TRACEBACK_VARIABLE}=1 shows the traceback)", file=sys.stderr)
        sys.exit(2)


def one_line_message(error: Exception, argv: list[str]) -> Optional[str]:
    """What to print instead of the traceback, or None to show it: AllenNLP's way to reject a setting
    (`ConfigurationError`: a config value, --cuda-device without a GPU, an unknown --predictor), a
    missing file, a predictor argument the predictor does not take, an error green_nlp raised for the
    user (`error_origin`), and Jsonnet's errors; their tracebacks bury the line to act on."""
    from allennlp.common.checks import ConfigurationError

    from green_nlp.error_origin import raised_by, raised_in_green_nlp

    if isinstance(error, ConfigurationError):
        return str(error)
    if isinstance(error, FileNotFoundError):  # a data file, archive or config a path names is not there
        return missing_file_message(error)
    predictor_args = any(arg.startswith("--predictor-args") for arg in argv)
    if isinstance(error, TypeError) and "unexpected keyword argument" in str(error) and predictor_args:
        return f"--predictor-args: {error}"
    if isinstance(error, (ValueError, TypeError, OSError, pickle.UnpicklingError)) and raised_in_green_nlp(error):
        return str(error)  # a malformed data line at file:line, a bad option value, a folder for a file
    if isinstance(error, ValueError) and raised_by(error, "with_overrides"):  # allennlp's merge of -o into the config
        return (
            f"-o overrides: {error}; an override key is a dotted path the config has (trainer.num_epochs), "
            "or a whole section as JSON"
        )
    if isinstance(error, RuntimeError) and str(error).startswith(JSONNET_ERRORS):
        return jsonnet_message(str(error))
    return None


JSONNET_ERRORS = ("STATIC ERROR", "RUNTIME ERROR")
RUNTIME_ERROR = "RUNTIME ERROR: "
UNDEFINED_VARIABLE = "undefined external variable: "


def jsonnet_message(text: str) -> str:
    """Jsonnet's error as one line. A static error is a syntax error in the config or its -o
    overrides; a runtime error is the config's own (`error` for a value it does not take, a missing
    `std.extVar`): its message and where it stopped, without Jsonnet's stack of frames."""
    lines = text.strip().split("\n")
    if not lines[0].startswith(RUNTIME_ERROR):
        return f"the config or its -o overrides are not valid Jsonnet: {' '.join(text.split())}"
    message = lines[0][len(RUNTIME_ERROR) :]
    where = lines[1].strip().split("\t")[0] if len(lines) > 1 else ""
    said = f"the config stopped with an error: {message}" + (f" (at {where})" if where else "")
    if message.startswith(UNDEFINED_VARIABLE):  # AllenNLP gives a config the environment's variables
        name = message[len(UNDEFINED_VARIABLE) :]
        said += f"; set it in the environment ({name}=... green-nlp train ...): the config's header says what it takes"
    return said
