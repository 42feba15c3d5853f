"""Parameter counting: the paper's measure of how green a model is."""

from torch import nn


def count_trainable_parameters(module: nn.Module) -> int:
    """Number of scalars that receive gradients (frozen teachers and buffers excluded)."""
    return sum(parameter.numel() for parameter in module.parameters() if parameter.requires_grad)
