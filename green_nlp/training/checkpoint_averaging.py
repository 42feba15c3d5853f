"""Average the weights of several checkpoints of one training run.

Averaging the best-on-dev checkpoint with the last one smooths out the noise of the final epochs
at no training cost (the idea behind checkpoint averaging in machine translation and stochastic
weight averaging). Only the weights change: the run's config and vocabulary still describe the
model, so the result is archived like any other run.
"""

import re
from collections.abc import Sequence
from pathlib import Path

import torch
from allennlp.common.checks import ConfigurationError

StateDict = dict[str, torch.Tensor]

_EPOCH_CHECKPOINT = re.compile(r"model_state_e(\d+)_b(\d+)\.th$")


def epoch_checkpoints(serialization_dir: Path) -> list[Path]:
    """The run's `model_state_e{epoch}_b{batch}.th` files, oldest first."""
    found = [
        (tuple(int(x) for x in match.groups()), path)
        for path in Path(serialization_dir).glob("model_state_e*_b*.th")
        if (match := _EPOCH_CHECKPOINT.search(path.name))
    ]
    return [path for _, path in sorted(found)]


def best_and_last(serialization_dir: Path) -> list[Path]:
    """`best.th` and the newest epoch checkpoint: the default pair to average."""
    serialization_dir = Path(serialization_dir)
    best = serialization_dir / "best.th"
    epochs = epoch_checkpoints(serialization_dir)
    if not best.exists() or not epochs:
        raise ConfigurationError(
            f"{serialization_dir} needs best.th and at least one model_state_e*_b*.th to average; "
            "name the checkpoints explicitly otherwise"
        )
    return [best, epochs[-1]]


def average_state_dicts(states: Sequence[StateDict]) -> StateDict:
    """Element-wise mean of floating-point tensors; other tensors (counters, masks) must agree and
    are taken as they are. Mismatched keys or shapes are refused rather than half-averaged."""
    if not states:
        raise ConfigurationError("no checkpoints to average")
    first = states[0]
    for index, state in enumerate(states[1:], start=1):
        if state.keys() != first.keys():
            missing, extra = sorted(first.keys() - state.keys()), sorted(state.keys() - first.keys())
            raise ConfigurationError(
                f"checkpoint {index} does not hold the same parameters as checkpoint 0 "
                f"(missing {missing[:5]}, extra {extra[:5]}): were they saved by the same model?"
            )
        for key, tensor in state.items():
            if tensor.shape != first[key].shape:
                raise ConfigurationError(
                    f"{key} has shape {tuple(tensor.shape)} in checkpoint {index} but "
                    f"{tuple(first[key].shape)} in checkpoint 0"
                )
    averaged: StateDict = {}
    for key, tensor in first.items():
        if tensor.is_floating_point():
            total = torch.zeros_like(tensor, dtype=torch.float64)
            for state in states:
                total += state[key].to(torch.float64)
            averaged[key] = (total / len(states)).to(tensor.dtype)
        else:
            for index, state in enumerate(states[1:], start=1):
                if not torch.equal(state[key], tensor):
                    raise ConfigurationError(
                        f"{key} is not a floating-point tensor and differs in checkpoint {index}; it cannot be averaged"
                    )
            averaged[key] = tensor.clone()
    return averaged


def load_and_average(paths: Sequence[Path]) -> StateDict:
    states = [torch.load(str(path), map_location="cpu") for path in paths]
    return average_state_dicts(states)
