"""Errors of the runtime that say the model and the input do not fit, as opposed to one bad line."""


class InputKindError(ValueError):
    """This model cannot read this kind of input at all (e.g. raw text for a parser trained with
    gold UPOS input): every line would fail the same way, so a file run stops at once with this
    message instead of skipping each line."""


class ModelFolderError(ValueError):
    """A model folder that must not or cannot be loaded as it is: a file path that leaves the folder,
    a file that differs from its recorded sha256, an empty or unparsable ONNX graph, a missing key.
    The message is one line that starts with the folder; the CLI and `green-nlp serve` print it and
    exit 2 (a ValueError, as every refusal of the runtime CLI)."""
