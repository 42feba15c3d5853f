"""Checkpoints that a killed process cannot leave half-written.

allennlp writes `model_state_e*.th` then `training_state_e*.th` in place, and `allennlp train -r`
resumes from the newest model-state file it finds. A kill during those writes (SIGKILL, OOM, a lost
machine) left a truncated newest checkpoint, and `-r` then died with EOFError.

The patched save writes the training state first and the model state last, each atomically, so a
checkpoint is only visible once both halves are complete; allennlp's own code then sees the files
present and does its usual bookkeeping (timers, keeping the most recent N). `best.th` gets the same
atomic write.
"""

import functools
import os
from typing import Any

import torch

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor

WRITTEN_FOR = WrittenFor("allennlp", ALLENNLP_VERSION)


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


def apply() -> bool:
    """Replace `Checkpointer.save_checkpoint` and the trainer's `best.th` write; True if this call did."""
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
        original_save(self, _FixedCheckpointState(state))  # type: ignore[arg-type]  # duck-typed: it asks for the state only

    def _save_model_state(self: GradientDescentTrainer, path: str) -> None:
        model = self._ddp_wrapped_model if self._ddp_wrapped_model is not None else self.model
        save_atomically(model.state_dict(), path)

    save_checkpoint._green_nlp_patched = True  # type: ignore[attr-defined]
    Checkpointer.save_checkpoint = save_checkpoint  # type: ignore[method-assign]
    GradientDescentTrainer._save_model_state = _save_model_state  # type: ignore[method-assign]
    return True
