"""Densely connected LSTM (LD-Net, Liu et al. 2018): every layer reads the input and all earlier
layers' outputs, so any layer can be removed without cutting off the ones above it."""

from typing import Optional

import torch
from allennlp.common import FromParams
from allennlp.common.checks import ConfigurationError


class DenseLstm(torch.nn.Module, FromParams):
    """
    `num_layers` one-directional LSTMs of `hidden_dim` units each; layer `i` reads
    `[input, out_0, ..., out_{i-1}]` (size `input_dim + i * hidden_dim`).

    Two per-layer controls act on what a layer passes *upwards*:

    - **gates** (`forward(..., gates=z)`): layer i's output is multiplied by `z[i]` everywhere
      (later layers and the returned outputs). This is LD-Net's layer selection; a layer with
      `z[i] == 0` contributes nothing and can be deleted (see `green_nlp.training.layer_selection`).
    - **layer-wise dropout** (`layer_dropout`, training only): each layer is dropped with this
      probability for a whole batch; a dropped layer's output is withheld from *later layers'
      inputs* but is still returned (it reaches the LM's projection), so the LM learns to work with
      missing layers before any is pruned. As in the reference implementation, nothing is rescaled.

    # Parameters

    input_dim : `int`
    hidden_dim : `int`
        Units per layer (the "growth" of the concatenated state).
    num_layers : `int`
    dropout : `float`, optional (default = `0.0`)
        Ordinary dropout on each layer's input.
    layer_dropout : `float`, optional (default = `0.0`)
        Probability of withholding a layer's output from the layers above it (per batch).
    """

    def __init__(
        self, input_dim: int, hidden_dim: int, num_layers: int, dropout: float = 0.0, layer_dropout: float = 0.0
    ) -> None:
        super().__init__()
        if min(input_dim, hidden_dim) < 1 or num_layers < 0:
            raise ConfigurationError(
                f"DenseLstm needs positive input_dim/hidden_dim and num_layers >= 0, got "
                f"{input_dim}/{hidden_dim}/{num_layers}"
            )
        if not (0.0 <= dropout < 1.0 and 0.0 <= layer_dropout < 1.0):
            raise ConfigurationError(f"dropout and layer_dropout must be in [0, 1), got {dropout}, {layer_dropout}")
        self.input_dim = input_dim
        self.hidden_dim = hidden_dim
        self.num_layers = num_layers
        self.layer_dropout = layer_dropout
        self._dropout = torch.nn.Dropout(dropout)
        self.layers = torch.nn.ModuleList(
            torch.nn.LSTM(input_dim + i * hidden_dim, hidden_dim, batch_first=True) for i in range(num_layers)
        )

    def get_output_dim(self) -> int:
        """Size of the concatenated layer outputs (the input is not included)."""
        return self.num_layers * self.hidden_dim

    def forward(self, inputs: torch.Tensor, gates: Optional[torch.Tensor] = None) -> list[torch.Tensor]:
        """
        # Parameters

        inputs : `torch.Tensor`, (batch, seq_len, input_dim)
            Padding must come at the end of each row (outputs at padded positions are garbage).
        gates : `torch.Tensor`, optional, (num_layers,)

        # Returns

        One `(batch, seq_len, hidden_dim)` tensor per layer, gated.
        """
        if gates is not None and gates.shape != (self.num_layers,):
            raise ValueError(f"expected {self.num_layers} gates, got shape {tuple(gates.shape)}")
        state = inputs  # (batch, seq_len, input_dim + i * hidden_dim)
        outputs: list[torch.Tensor] = []
        for i, layer in enumerate(self.layers):
            output, _ = layer(self._dropout(state))  # (batch, seq_len, hidden_dim)
            if gates is not None:
                output = output * gates[i]
            outputs.append(output)
            passed_up = output
            if self.training and self.layer_dropout > 0 and float(torch.rand(())) < self.layer_dropout:
                passed_up = torch.zeros_like(output)
            state = torch.cat([state, passed_up], dim=-1)
        return outputs

    def kept_copy(self, kept_layers: list[int]) -> "DenseLstm":
        """A smaller `DenseLstm` made of `kept_layers` only, with their weights.

        The dense connections mean each kept layer's input weights lose the columns that read the
        removed layers' outputs; given gates of 0 for the removed layers, outputs are unchanged.
        """
        if sorted(set(kept_layers)) != list(kept_layers) or any(not 0 <= k < self.num_layers for k in kept_layers):
            raise ValueError(f"kept_layers must be increasing indices below {self.num_layers}, got {kept_layers}")
        pruned = DenseLstm(self.input_dim, self.hidden_dim, len(kept_layers), self._dropout.p, self.layer_dropout)
        for new_index, old_index in enumerate(kept_layers):
            # the old layer's input columns that come from the input or an earlier kept layer
            wanted = torch.tensor(kept_input_columns(self.input_dim, self.hidden_dim, kept_layers[:new_index]))
            state = dict(self.layers[old_index].state_dict())
            state["weight_ih_l0"] = state["weight_ih_l0"].index_select(1, wanted)
            pruned.layers[new_index].load_state_dict(state)
        return pruned


def kept_input_columns(input_dim: int, hidden_dim: int, kept_layers: list[int]) -> list[int]:
    """Columns of `[input, out_0, ..., out_{L-1}]` that belong to the input or a kept layer."""
    columns = list(range(input_dim))
    for layer in kept_layers:
        start = input_dim + layer * hidden_dim
        columns.extend(range(start, start + hidden_dim))
    return columns
