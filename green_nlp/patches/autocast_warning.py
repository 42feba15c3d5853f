"""Drop the FutureWarning allennlp triggers once per epoch with `torch.cuda.amp.autocast`.

torch 2.4 deprecated `torch.cuda.amp.autocast` in favour of `torch.amp.autocast("cuda")`; allennlp
2.10.1's trainer calls the old one, so every training run repeats a warning the user cannot act on.
Only that message is filtered.
"""

import warnings

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)

_MESSAGE = r".*torch\.cuda\.amp\.autocast.*"


def apply() -> bool:
    """Install the filter; True if this call installed it."""
    if any(
        action == "ignore" and getattr(message, "pattern", None) == _MESSAGE and category is FutureWarning
        for action, message, category, *_ in warnings.filters
    ):
        return False
    warnings.filterwarnings("ignore", message=_MESSAGE, category=FutureWarning)
    return True
