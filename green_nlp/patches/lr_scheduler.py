"""`reduce_on_plateau` on a torch without `ReduceLROnPlateau(verbose=...)`.

torch removed the `verbose` argument, which allennlp's `ReduceOnPlateauLearningRateScheduler`
always passes. The replacement constructor keeps allennlp's signature (FromParams reads it to build
the scheduler from a config) and drops `verbose` only on its way to torch. On a torch that still
takes `verbose` nothing is changed.
"""

import functools
import inspect
from typing import Any, Union

import torch

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)


def _torch_accepts_verbose() -> bool:
    return "verbose" in inspect.signature(torch.optim.lr_scheduler.ReduceLROnPlateau.__init__).parameters


def apply() -> bool:
    """Replace the scheduler's constructor where torch refuses `verbose`; True if this call did."""
    if _torch_accepts_verbose():
        return False
    from allennlp.training.learning_rate_schedulers.pytorch_lr_schedulers import (
        ReduceOnPlateauLearningRateScheduler as Scheduler,
    )
    from allennlp.training.learning_rate_schedulers.pytorch_lr_schedulers import (
        _PyTorchLearningRateSchedulerWithMetricsWrapper as MetricsWrapper,
    )

    if getattr(Scheduler.__init__, "_green_nlp_patched", False):
        return False
    original = Scheduler.__init__

    @functools.wraps(original)
    def __init__(
        self: Scheduler,
        optimizer: torch.optim.Optimizer,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        verbose: bool = False,
        threshold_mode: str = "rel",
        threshold: float = 1e-4,
        cooldown: int = 0,
        min_lr: Union[float, list[float]] = 0,
        eps: float = 1e-8,
    ) -> None:
        # allennlp's annotations say `str` where torch's say Literal[...]: the values pass through as given
        options: dict[str, Any] = dict(
            mode=mode,
            factor=factor,
            patience=patience,
            threshold_mode=threshold_mode,
            threshold=threshold,
            cooldown=cooldown,
            min_lr=min_lr,
            eps=eps,
        )
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer=optimizer, **options)
        # allennlp annotates the wrapped scheduler as `_LRScheduler`; ReduceLROnPlateau is not one (as in its code)
        MetricsWrapper.__init__(self, scheduler)  # type: ignore[arg-type]

    __init__._green_nlp_patched = True  # type: ignore[attr-defined]
    Scheduler.__init__ = __init__  # type: ignore[method-assign]
    return True
