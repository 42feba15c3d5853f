"""One interface for every green_nlp distiller, and the one way a student model holds one.

A `Distiller` turns what the student computed (its scores and its own gold-label loss) and what
the teacher gives (a teacher run beside the student, or logits stored with the data) into the
batch's training loss. Each family passes one typed input (`LogitDistillationInput`,
`ParserDistillationInput`), so a caller names what it gives instead of knowing an argument order.
A student model mixes in `Distillable`, and a distillation callback attaches a distiller before
the first batch and detaches it at the end.
"""

import abc
from typing import Any, Generic, Optional, TypeVar

import torch
from allennlp.common.checks import ConfigurationError

InputT = TypeVar("InputT")


class Distiller(abc.ABC, Generic[InputT]):
    """
    `kl_weight` * (the distillation terms at `temperature`) + `ce_weight` * (the gold-label terms).
    `DistillationSchedule` may change the two weights during training (teacher annealing), so a
    distiller reads them at every `loss()`. The temperature is checked here, once, whenever it is
    set; the loss functions of `green_nlp.nn.distillation` take it as given.

    # Parameters

    temperature : `float`, optional (default = `1.0`)
    kl_weight, ce_weight : `float`, optional (default = `1.0` each)
    """

    def __init__(self, temperature: float = 1.0, kl_weight: float = 1.0, ce_weight: float = 1.0) -> None:
        self.temperature, self.kl_weight, self.ce_weight = temperature, kl_weight, ce_weight

    @property
    def temperature(self) -> float:
        return self._temperature

    @temperature.setter
    def temperature(self, value: float) -> None:
        if not value > 0:  # also refuses NaN
            raise ConfigurationError(f"temperature must be positive, got {value}")
        self._temperature = float(value)

    @abc.abstractmethod
    def loss(self, inputs: InputT) -> torch.Tensor:
        """The batch's training loss from what the student computed (`inputs`, the family's typed
        input)."""


class Distillable:
    """
    Mixin for a student `Model` (list it after `Model`): `attach_distiller()` /
    `detach_distiller()`, and `distiller`, the one the model trains with.

    The distiller is kept in the instance's `__dict__`, never registered as a submodule, and may
    not be an `nn.Module`: the parser's distiller holds the teacher, and a registered one would put
    the teacher's weights into the student's parameters (so its optimizer), its `state_dict` and so
    its archive, which then could not load without the teacher.
    """

    # the Distiller subclass this family trains with (its distillation callback's); None: any
    distiller_kind: Optional[type] = None

    def attach_distiller(self, distiller: Optional[Distiller[Any]]) -> None:
        """Train with `distiller` from the next batch on; `None` detaches (back to `default_distiller()`)."""
        if distiller is not None and not isinstance(distiller, Distiller):
            raise TypeError(f"a distiller must be a green_nlp Distiller, got {type(distiller).__name__}")
        if isinstance(distiller, torch.nn.Module):
            raise TypeError("a distiller must not be an nn.Module: its teacher would enter the student's state_dict")
        self.__dict__["_distiller"] = distiller

    def detach_distiller(self) -> None:
        self.attach_distiller(None)

    @property
    def distiller(self) -> Optional[Distiller[Any]]:
        attached = self.__dict__.get("_distiller")
        return attached if attached is not None else self.default_distiller()

    def default_distiller(self) -> Optional[Distiller[Any]]:
        """What the model trains with while none is attached; `None`: its own gold-label loss."""
        return None
