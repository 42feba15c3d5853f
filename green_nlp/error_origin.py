"""Where an exception was raised: in green_nlp's own code, or in a library under it.

The command line shortens an error to one line only where green_nlp raised it (its messages name the
file, line or setting a user can change), and a config section is put in front of an error only
where a library raised it; the same exception types from torch or AllenNLP otherwise keep their
traceback. Imports nothing heavy.
"""

import os
from types import CodeType
from typing import Optional

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _innermost_code(error: BaseException) -> Optional[CodeType]:
    """The code object of the error's innermost Python frame (None without a traceback)."""
    frame = error.__traceback__
    if frame is None:
        return None
    while frame.tb_next is not None:
        frame = frame.tb_next
    return frame.tb_frame.f_code


def raised_in_green_nlp(error: BaseException) -> bool:
    """Whether the error's innermost Python frame is in the green_nlp package."""
    code = _innermost_code(error)
    return code is not None and os.path.abspath(code.co_filename).startswith(PACKAGE + os.sep)


def raised_by(error: BaseException, function: str) -> bool:
    """Whether the error's innermost Python frame is a function of this name (in any package)."""
    code = _innermost_code(error)
    return code is not None and code.co_name == function
