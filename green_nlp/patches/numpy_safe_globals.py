"""Training states holding numpy scalars load with `weights_only=True`.

allennlp's `torch.load` calls leave `weights_only` unset, which torch >= 2.6 reads as True; a training
state holding numpy scalars (numpy metrics, callback state) then fails on `allennlp train -r`. This
allow-lists exactly the numpy scalar and dtype types rather than switching `weights_only` off. On a
torch without `add_safe_globals` (< 2.4) nothing is changed.
"""

import numpy
import torch

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

_DTYPE_CLASSES = ("Float64DType", "Float32DType", "Int64DType", "Int32DType", "BoolDType")


def apply() -> bool:
    """Add the numpy types to torch's safe globals; True if this call added any."""
    if not hasattr(torch.serialization, "add_safe_globals"):
        return False
    multiarray = getattr(numpy, "_core", None) or numpy.core  # numpy 2 moved it to numpy._core
    safe = [multiarray.multiarray.scalar, numpy.dtype]
    dtype_classes = getattr(numpy, "dtypes", None)
    if dtype_classes is not None:
        safe += [getattr(dtype_classes, name) for name in _DTYPE_CLASSES if hasattr(dtype_classes, name)]
    already = set(torch.serialization.get_safe_globals())
    missing = [item for item in safe if item not in already]
    if missing:
        torch.serialization.add_safe_globals(missing)
    return bool(missing)
