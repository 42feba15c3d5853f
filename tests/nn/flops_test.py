import torch
from allennlp.models.archival import load_archive

from green_nlp.modules.dense_lstm import DenseLstm
from green_nlp.nn.flops import (
    dense_lstm_flops,
    ldnet_lm_flops_per_token,
    ldnet_tagger_flops_per_token,
    torch_lstm_flops,
)
from tests.conftest import FIXTURES


def _matrix_weights(module: torch.nn.Module) -> int:
    """Multiply-adds of a step = entries of the weight matrices (biases excluded)."""
    return sum(p.numel() for name, p in module.named_parameters() if "weight" in name)


def test_dense_lstm_flops_equal_its_weight_matrix_entries():
    rnn = DenseLstm(input_dim=10, hidden_dim=4, num_layers=5)
    assert dense_lstm_flops(10, 4, 5) == _matrix_weights(rnn)
    # by hand: layer i has 4 * 4 * (10 + 4 i + 4) multiply-adds
    assert dense_lstm_flops(10, 4, 5) == sum(16 * (14 + 4 * i) for i in range(5))


def test_torch_lstm_flops_cover_layers_and_directions():
    lstm = torch.nn.LSTM(7, 5, num_layers=2, bidirectional=True)
    assert torch_lstm_flops(lstm) == _matrix_weights(lstm)


def test_tagger_flops_split_lm_and_rest():
    model = load_archive(str(FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz")).model
    flops = ldnet_tagger_flops_per_token(model, mean_word_chars=5.0)
    assert flops["lm"] == ldnet_lm_flops_per_token(model) == 2 * dense_lstm_flops(8, 6, 3)
    assert flops["total"] == flops["lm"] + flops["tagger"] > flops["lm"]
