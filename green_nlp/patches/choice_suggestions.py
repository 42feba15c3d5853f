"""A misspelt registered name in a config (`"type": "green_biafine_parser"`) names the close ones.

allennlp 2.10.1's `Params.pop_choice` refuses a name that is not registered with every name that
is (about 60 for a model), and the advice to use `--include-package`: right for a missing plugin,
no help for a typo, which is the usual cause once green_nlp is included. The error now starts
with the registered names closest to the one given (`difflib`, the standard library's fuzzy
match), then AllenNLP's own message; a name with no close match keeps AllenNLP's message alone.
"""

import difflib
import functools
from collections.abc import Sequence
from typing import Any

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)


def close_names(value: Any, choices: Sequence[Any], limit: int = 3) -> list[str]:
    """The registered names most like `value` (none for a value that is not a string)."""
    if not isinstance(value, str):
        return []
    names = [choice for choice in choices if isinstance(choice, str)]
    return difflib.get_close_matches(value, names, n=limit, cutoff=0.6)


def suggestion(value: Any, key: str, choices: Sequence[Any]) -> str:
    """`'X' is not a registered name for KEY; did you mean 'Y'?` (as `config_keys` words it), or ""
    where nothing is close."""
    names = close_names(value, choices)
    if not names:
        return ""
    listed = " or ".join(repr(name) for name in names)
    return f"{value!r} is not a registered name for {key}; did you mean {listed}? "


def apply() -> bool:
    """Wrap `Params.pop_choice` (once); True if this call wrapped it."""
    from allennlp.common.checks import ConfigurationError
    from allennlp.common.params import Params

    original = Params.pop_choice
    if getattr(original, "_green_nlp_patched", False):
        return False

    @functools.wraps(original)
    def pop_choice(self: Any, key: str, choices: list[Any], *args: Any, **kwargs: Any) -> Any:
        value = self.params.get(key)  # read before AllenNLP pops it
        try:
            return original(self, key, choices, *args, **kwargs)
        except ConfigurationError as error:
            advice = suggestion(value, self.history + key, choices)
            if not advice:
                raise
            raise ConfigurationError(advice + str(error)) from None

    pop_choice._green_nlp_patched = True  # type: ignore[attr-defined]
    Params.pop_choice = pop_choice  # type: ignore[method-assign]
    return True
