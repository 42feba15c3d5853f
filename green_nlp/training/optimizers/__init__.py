"""Optimizers registered with AllenNLP."""

from green_nlp.training.optimizers.hybrid import HybridAdamOptimizer

__all__ = [
    "HybridAdamOptimizer",
]
