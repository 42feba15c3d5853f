"""A setting a torch module refuses is an error naming where in the config it was set.

allennlp 2.10.1 builds every module of a config with `FromParams.from_params`; what a constructor
raises reaches the user as is. A value torch refuses (`"hidden_size": -5` in a parser's encoder)
ended `allennlp train` with `ValueError: hidden_size must be greater than zero` under a traceback
through allennlp's and torch's code, without the config section it came from. The replacement runs
the same `from_params` and, when building an `nn.Module` (or any component that is not green_nlp's
own: an optimizer, a data loader, a trainer) raises ValueError or TypeError, raises it again with
the section and the class in front (`model.encoder: hidden_size must be greater than zero
(building LstmSeq2SeqEncoder)`) as a `ConfigurationError` that is still a ValueError or TypeError, so
`green-nlp train` prints it on one line. The innermost module names the error; the modules around it
pass it on unchanged.
"""

import functools
from typing import Any

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)


def _error_classes() -> tuple[type, type]:
    from allennlp.common.checks import ConfigurationError

    class ModuleValueError(ConfigurationError, ValueError):
        """A module's ValueError, named by its config section."""

    class ModuleTypeError(ConfigurationError, TypeError):
        """A module's TypeError, named by its config section."""

    for error in (ModuleValueError, ModuleTypeError):  # as a traceback's last line names them
        error.__qualname__ = error.__name__
    return ModuleValueError, ModuleTypeError


def section_of(params: Any) -> str:
    """`model.encoder` for the params of a config's `model.encoder` ("" when not known)."""
    return str(getattr(params, "history", "") or "").rstrip(".")


def refuses_settings(cls: type, error: BaseException) -> bool:
    """Whether a ValueError or TypeError while building `cls` is a setting it refused: any torch
    module's, and any error raised outside green_nlp (an optimizer's negative learning rate, a data
    loader's batch size of 0, a trainer's `patience` given as a string). green_nlp's own readers and
    callbacks already name what is wrong and stay as they are."""
    import torch

    from green_nlp.error_origin import raised_in_green_nlp

    return issubclass(cls, torch.nn.Module) or not raised_in_green_nlp(error)


def apply() -> bool:
    """Wrap `FromParams.from_params`; True if this call installed the wrapper."""
    from allennlp.common.from_params import FromParams

    original = FromParams.__dict__["from_params"]
    if getattr(original.__func__, "_green_nlp_patched", False):
        return False
    value_error, type_error = _error_classes()
    named = (value_error, type_error)

    @functools.wraps(original.__func__)
    def from_params(cls: type, params: Any, *args: Any, **kwargs: Any) -> Any:
        section = section_of(params)
        try:
            return original.__func__(cls, params, *args, **kwargs)
        except (ValueError, TypeError) as error:
            if isinstance(error, named) or not section or not refuses_settings(cls, error):
                raise
            wrapper = value_error if isinstance(error, ValueError) else type_error
            raise wrapper(f"{section}: {error} (building {cls.__name__})") from error

    from_params._green_nlp_patched = True  # type: ignore[attr-defined]
    FromParams.from_params = classmethod(from_params)  # type: ignore[assignment]
    return True
