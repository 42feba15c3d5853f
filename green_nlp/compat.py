"""Narrow runtime fixes that let allennlp 2.10.1 (2022) run on current torch / numpy.

Each patch checks whether it is needed, applies once, and leaves everything else alone. They are
applied when green_nlp is imported (which `allennlp` does through `.allennlp_plugins` or
`--include-package green_nlp`).
"""
import functools
import inspect
import os
import warnings
from typing import Any, List, Union

import numpy
import torch

_APPLIED: List[str] = []


def _reduce_lr_on_plateau_accepts_verbose() -> bool:
    return "verbose" in inspect.signature(torch.optim.lr_scheduler.ReduceLROnPlateau.__init__).parameters


def patch_reduce_on_plateau() -> bool:
    """torch removed `ReduceLROnPlateau(verbose=...)`, which allennlp always passes.

    The replacement constructor keeps allennlp's signature (FromParams reads it to build the
    scheduler from config) and drops `verbose` only on its way to torch.
    """
    if _reduce_lr_on_plateau_accepts_verbose():
        return False
    from allennlp.training.learning_rate_schedulers.pytorch_lr_schedulers import (
        ReduceOnPlateauLearningRateScheduler as Scheduler,
        _PyTorchLearningRateSchedulerWithMetricsWrapper as MetricsWrapper,
    )

    if getattr(Scheduler.__init__, "_green_nlp_patched", False):
        return False
    original = Scheduler.__init__

    @functools.wraps(original)
    def __init__(self, optimizer: torch.optim.Optimizer, mode: str = "min", factor: float = 0.1,
                 patience: int = 10, verbose: bool = False, threshold_mode: str = "rel",
                 threshold: float = 1e-4, cooldown: int = 0, min_lr: Union[float, List[float]] = 0,
                 eps: float = 1e-8) -> None:
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(
            optimizer=optimizer, mode=mode, factor=factor, patience=patience,
            threshold_mode=threshold_mode, threshold=threshold, cooldown=cooldown, min_lr=min_lr, eps=eps)
        MetricsWrapper.__init__(self, scheduler)

    __init__._green_nlp_patched = True  # type: ignore[attr-defined]
    Scheduler.__init__ = __init__
    return True


def allow_numpy_scalars_in_checkpoints() -> bool:
    """torch >= 2.6 loads with `weights_only=True`; a training state holding numpy scalars
    (numpy metrics, callback state) then fails on `allennlp train -r`. Allow-list exactly the
    numpy scalar/dtype types rather than switching `weights_only` off."""
    if not hasattr(torch.serialization, "add_safe_globals"):
        return False
    multiarray = getattr(numpy, "_core", None) or numpy.core  # numpy 2 moved it to numpy._core
    safe = [multiarray.multiarray.scalar, numpy.dtype]
    dtype_classes = getattr(numpy, "dtypes", None)
    if dtype_classes is not None:
        safe += [getattr(dtype_classes, name) for name in
                 ("Float64DType", "Float32DType", "Int64DType", "Int32DType", "BoolDType")
                 if hasattr(dtype_classes, name)]
    already = set(torch.serialization.get_safe_globals())
    missing = [item for item in safe if item not in already]
    if missing:
        torch.serialization.add_safe_globals(missing)
    return bool(missing)


def silence_autocast_deprecation() -> None:
    """allennlp calls `torch.cuda.amp.autocast`, deprecated in torch 2.4: one warning per epoch."""
    warnings.filterwarnings("ignore", message=r".*torch\.cuda\.amp\.autocast.*", category=FutureWarning)


def save_atomically(obj: Any, path: str) -> None:
    """`torch.save` to a temporary file in the same folder, then rename it into place, so a process
    killed mid-write leaves either the old file or the complete new one, never a truncated one."""
    temporary = f"{path}.partial-{os.getpid()}"
    try:
        torch.save(obj, temporary)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


class _FixedCheckpointState:
    """Hands allennlp's `save_checkpoint` a state that was already taken (and written)."""

    def __init__(self, state: Any) -> None:
        self._state = state

    def get_checkpoint_state(self) -> Any:
        return self._state


def make_checkpoints_crash_safe() -> bool:
    """allennlp writes `model_state_e*.th` then `training_state_e*.th` in place, and `-r` resumes
    from the newest model-state file it finds. A kill during those writes (SIGKILL, OOM, a lost
    machine) left a truncated newest checkpoint and `allennlp train -r` died with EOFError.

    The patched save writes the training state first and the model state last, each atomically, so
    a checkpoint is only visible once both halves are complete; allennlp's own code then sees the
    files present and does its usual bookkeeping (timers, keeping the most recent N). `best.th`
    gets the same atomic write.
    """
    from allennlp.training.checkpointer import Checkpointer
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer

    if getattr(Checkpointer.save_checkpoint, "_green_nlp_patched", False):
        return False
    original_save = Checkpointer.save_checkpoint

    @functools.wraps(original_save)
    def save_checkpoint(self: Checkpointer, trainer: Any) -> None:
        if self._serialization_dir is None:
            return
        state = trainer.get_checkpoint_state()
        if state is not None:
            epochs = state.trainer_state["epochs_completed"]
            batches = state.trainer_state["batches_in_epoch_completed"]
            training_state_path = self._training_state_path(epochs, batches)
            model_state_path = self._model_state_path(epochs, batches)
            if not os.path.isfile(model_state_path):
                save_atomically(state.trainer_state, training_state_path)
                save_atomically(state.model_state, model_state_path)
        original_save(self, _FixedCheckpointState(state))

    def _save_model_state(self: GradientDescentTrainer, path: str) -> None:
        model = self._ddp_wrapped_model if self._ddp_wrapped_model is not None else self.model
        save_atomically(model.state_dict(), path)

    save_checkpoint._green_nlp_patched = True  # type: ignore[attr-defined]
    Checkpointer.save_checkpoint = save_checkpoint
    GradientDescentTrainer._save_model_state = _save_model_state
    return True


def apply_all() -> List[str]:
    """Apply every patch that is needed; returns the names of those applied by this call."""
    applied = []
    if patch_reduce_on_plateau():
        applied.append("reduce_on_plateau")
    if allow_numpy_scalars_in_checkpoints():
        applied.append("numpy_safe_globals")
    if make_checkpoints_crash_safe():
        applied.append("crash_safe_checkpoints")
    silence_autocast_deprecation()
    _APPLIED.extend(applied)
    return applied
