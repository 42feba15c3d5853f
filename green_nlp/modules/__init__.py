"""Building blocks the models share."""

from green_nlp.modules.dense_lstm import DenseLstm

__all__ = [
    "DenseLstm",
]
