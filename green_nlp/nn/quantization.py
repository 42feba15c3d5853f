"""int8 dynamic quantization of LSTM and Linear layers for faster CPU inference."""

import copy
import warnings

import torch
from torch import nn


def quantize_for_cpu(model: nn.Module) -> nn.Module:
    """A copy of `model` whose LSTM and Linear weights are int8 (activations quantized on the fly).

    Uses torch's eager dynamic quantization, which needs no calibration data; the biaffine
    scorers' own weights stay float. Inference only: the copy cannot be trained further.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao.quantization announces its move to torchao
        return torch.ao.quantization.quantize_dynamic(
            copy.deepcopy(model).eval(), {nn.LSTM, nn.Linear}, dtype=torch.qint8
        )
