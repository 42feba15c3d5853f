"""`green-export`'s quiet mode: torch's C++ ONNX exporter writes a shape-inference warning for every
packed LSTM sequence straight to file descriptor 2, past Python's warnings filters; without
`--verbose` those lines are left out and everything else written to stderr meanwhile comes back."""

import os
import warnings
from pathlib import Path

import pytest
import torch

from green_nlp.commands.green_export import _quiet_export, _without_torch_shape_warnings


class PackedLstm(torch.nn.Module):
    """The smallest graph that makes the exporter warn: an LSTM over packed sequences, as in the
    parser's and tagger's encoders."""

    def __init__(self) -> None:
        super().__init__()
        self.lstm = torch.nn.LSTM(3, 2, batch_first=True)

    def forward(self, inputs: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        packed = torch.nn.utils.rnn.pack_padded_sequence(inputs, lengths, batch_first=True, enforce_sorted=False)
        output, _ = self.lstm(packed)
        return torch.nn.utils.rnn.pad_packed_sequence(output, batch_first=True)[0]


def _export(path: Path) -> None:
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            PackedLstm(),
            (torch.zeros(2, 4, 3), torch.tensor([4, 2])),
            str(path),
            dynamo=False,
            input_names=["inputs", "lengths"],
            output_names=["output"],
            dynamic_axes={"inputs": {0: "batch", 1: "words"}, "lengths": {0: "batch"}},
        )


def test_torchs_own_export_writes_the_shape_warning_to_stderr(tmp_path: Path, capfd):
    # the premise: without the filter, torch writes the lines the filter is for
    _export(tmp_path / "plain.onnx")
    assert "Warning: The shape inference of prim::PackPadded type is missing" in capfd.readouterr().err


def test_quiet_export_leaves_out_the_shape_warnings_and_keeps_other_lines(tmp_path: Path, capfd):
    with _quiet_export():
        os.write(2, b"before\n")
        _export(tmp_path / "quiet.onnx")
        os.write(2, b"after, no line end")
    assert (tmp_path / "quiet.onnx").exists()
    err = capfd.readouterr().err
    assert "shape_type_inference" not in err and "PackPadded" not in err
    assert err == "before\nafter, no line end"


def test_what_is_written_before_an_error_comes_back_and_the_error_goes_on(capfd):
    with pytest.raises(RuntimeError, match="export failed"), _without_torch_shape_warnings():
        os.write(2, b"a line the user must see\n")
        raise RuntimeError("export failed")
    assert capfd.readouterr().err == "a line the user must see\n"
    os.write(2, b"stderr is stderr again\n")
    assert capfd.readouterr().err == "stderr is stderr again\n"
