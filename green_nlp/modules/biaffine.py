"""Biaffine scorer (Dozat & Manning 2017) that scores either all word pairs or chosen pairs."""

import torch
from torch import nn


class Biaffine(nn.Module):
    """
    `score(x_i, y_j) = [x_i; 1]^T W_o [y_j; 1]` for each output channel `o`.

    Written here rather than taken from allennlp's `BilinearMatrixAttention` because the parser
    needs the same weights in two shapes: all n^2 pairs (arcs, and labels for distillation) and
    only n chosen (dependent, head) pairs (labels at decode time), which keeps label scoring linear
    in sentence length instead of quadratic.

    # Parameters

    input_dim_x, input_dim_y : `int`
        Sizes of the dependent (`x`) and head (`y`) representations.
    num_outputs : `int`
        1 for arc scores, the number of labels for label scores.
    bias_x, bias_y : `bool`
        Append a constant 1 to `x` / `y` so the scorer also has linear and bias terms.
    """

    def __init__(
        self, input_dim_x: int, input_dim_y: int, num_outputs: int = 1, bias_x: bool = True, bias_y: bool = True
    ) -> None:
        super().__init__()
        self.num_outputs = num_outputs
        self.bias_x, self.bias_y = bias_x, bias_y
        self.weight = nn.Parameter(torch.zeros(num_outputs, input_dim_x + bias_x, input_dim_y + bias_y))

    def _with_bias(self, x: torch.Tensor, y: torch.Tensor):
        if self.bias_x:
            x = torch.cat([x, x.new_ones(*x.shape[:-1], 1)], dim=-1)
        if self.bias_y:
            y = torch.cat([y, y.new_ones(*y.shape[:-1], 1)], dim=-1)
        return x, y

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """All pairs: x (batch, n, dx), y (batch, n, dy) -> (batch, num_outputs, n_x, n_y)."""
        x, y = self._with_bias(x, y)
        # (batch, num_outputs, n_x, n_y)
        return torch.einsum("bxi,oij,byj->boxy", x, self.weight, y)

    def score_pairs(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """Aligned pairs: x, y (..., d) -> (..., num_outputs), scoring x[k] against y[k] only."""
        x, y = self._with_bias(x, y)
        # (..., num_outputs)
        return torch.einsum("...i,oij,...j->...o", x, self.weight, y)
