"""Errors of the runtime that say the model and the input do not fit, as opposed to one bad line."""


class InputKindError(ValueError):
    """This model cannot read this kind of input at all (e.g. raw text for a parser trained with
    gold UPOS input): every line would fail the same way, so a file run stops at once with this
    message instead of skipping each line."""
