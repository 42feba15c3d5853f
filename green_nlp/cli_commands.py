"""The commands `green-nlp` knows by name: its own runtime commands, AllenNLP's and green_nlp's
AllenNLP subcommands; its version line and the message for a command it does not know."""

from pathlib import Path
from typing import Optional

RUNTIME_COMMANDS = ("parse", "tag", "classify", "models", "configs", "serve")
# AllenNLP 2.10's own subcommands; green_nlp's are the `green_*.py` modules of green_nlp/commands
ALLENNLP_COMMANDS = (
    "build-vocab",
    "cached-path",
    "checklist",
    "count-instances",
    "diff",
    "evaluate",
    "find-lr",
    "predict",
    "print-results",
    "push-to-hf",
    "test-install",
    "train",
)


def version_line() -> str:
    """green_nlp's version, and AllenNLP's where the training stack is installed."""
    from importlib import metadata

    import green_nlp

    try:
        stack = f"AllenNLP {metadata.version('allennlp')}"
    except metadata.PackageNotFoundError:
        stack = "runtime only, no AllenNLP"
    return f"green-nlp {green_nlp.__version__} ({stack})"


def green_commands() -> list[str]:
    folder = Path(__file__).parent / "commands"
    return sorted(path.stem.replace("_", "-") for path in folder.glob("green_*.py"))


def unknown_command(command: str) -> Optional[str]:
    """A message for a command green-nlp cannot run, or None (AllenNLP then has the last word where
    it is installed: a plugin may add subcommands)."""
    import difflib
    import importlib.util

    known = [*RUNTIME_COMMANDS, *ALLENNLP_COMMANDS, *green_commands()]
    if command in known:
        return None
    close = difflib.get_close_matches(command, known, n=1)
    has_allennlp = importlib.util.find_spec("allennlp") is not None
    if has_allennlp and not close:
        return None
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (
        f"green-nlp: unknown command {command!r}{hint}. Runtime commands: {', '.join(RUNTIME_COMMANDS)}; "
        "with the training stack also AllenNLP's (train, evaluate, predict ...) and green_nlp's "
        "(green-predict, green-export ...); green-nlp --help lists them"
    )
