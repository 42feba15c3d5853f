"""A misspelt config key is an error naming the key, its config section and the closest valid key.

allennlp 2.10.1 builds objects from a config with `FromParams.from_params`, which calls
`create_kwargs`. When the constructor takes `**kwargs` (every green_nlp reader and model, which pass
them on to `DatasetReader` / `Model`, and allennlp's own `GradientDescentTrainer.from_partial_objects`)
allennlp passes every key it did not recognise through as is, "and hope[s] that you know what you're
doing". So a misspelt trainer key (`"num_epoch": 1`) was dropped on the floor by the trainer's
`**kwargs` and training ran with the default, and a misspelt reader key (`max_sentense_length`) became
a raw `TypeError` from `DatasetReader.__init__` that named neither the key's section nor a fix. Where
the constructor takes no `**kwargs`, allennlp does refuse extra keys, but without saying which valid
key was meant.

The replacement checks the keys before allennlp's own `create_kwargs` runs, and refuses a key that no
constructor of the class names: the inspected constructor, the parameters allennlp itself infers through
`**kwargs` (its `infer_params`) and, for the `**kwargs` case, every `__init__` of the class's bases (where
`from_partial_objects` passes the rest on to `cls(...)`). Keys any of them names pass through untouched,
so nothing allennlp accepted on purpose is refused.
"""

import difflib
import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)


def _named(parameters: Iterable[inspect.Parameter]) -> set[str]:
    """Names a caller can pass by keyword (not `self`, `*args` or `**kwargs`)."""
    skipped = (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.POSITIONAL_ONLY)
    return {p.name for p in parameters if p.kind not in skipped and p.name != "self"}


def valid_keys(constructor: Callable[..., Any], cls: type) -> set[str]:
    """Every config key `cls` can be built with through `constructor`."""
    from allennlp.common.from_params import infer_params

    inferred = infer_params(cls, constructor)
    keys = _named(inferred.values())
    takes_kwargs = any(p.kind == inspect.Parameter.VAR_KEYWORD for p in inferred.values())
    if takes_kwargs:  # what **kwargs can still reach: the constructors of the class and its bases
        for base in cls.mro():
            init = base.__dict__.get("__init__")
            if init is not None and init is not object.__init__:
                try:
                    keys |= _named(inspect.signature(init).parameters.values())
                except (TypeError, ValueError):  # a builtin without a signature names nothing
                    continue
    return keys


def unknown_key_message(section: str, class_name: str, key: str, valid: Iterable[str]) -> str:
    """`trainer.num_epoch: GradientDescentTrainer has no parameter 'num_epoch'; did you mean 'num_epochs'?`"""
    choices: list[str] = sorted(valid)
    close = difflib.get_close_matches(key, choices, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else f"its parameters are {', '.join(choices) or '(none)'}"
    return f"{section}{key}: {class_name} has no parameter {key!r}; {hint}"


def apply() -> bool:
    """Check keys in front of allennlp's `create_kwargs`; True if this call installed the check."""
    from allennlp.common import from_params
    from allennlp.common.checks import ConfigurationError

    original = from_params.create_kwargs
    if getattr(original, "_green_nlp_patched", False):
        return False

    @functools.wraps(original)
    def create_kwargs(constructor: Callable[..., Any], cls: type, params: Any, **extras: Any) -> Any:
        valid = valid_keys(constructor, cls)
        for key in list(params.keys()):
            if key not in valid:
                section = getattr(params, "history", "")
                raise ConfigurationError(unknown_key_message(section, cls.__name__, key, valid))
        return original(constructor, cls, params, **extras)

    create_kwargs._green_nlp_patched = True  # type: ignore[attr-defined]
    from_params.create_kwargs = create_kwargs
    return True
