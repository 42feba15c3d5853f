import pytest
import torch
from allennlp.common.checks import ConfigurationError

from green_nlp.modules.dense_lstm import DenseLstm, kept_input_columns


def _lstm(**kwargs) -> DenseLstm:
    torch.manual_seed(0)
    return DenseLstm(input_dim=5, hidden_dim=3, num_layers=3, **kwargs)


def test_shapes_and_dense_input_sizes():
    rnn = _lstm()
    outputs = rnn(torch.randn(2, 7, 5))
    assert [tuple(o.shape) for o in outputs] == [(2, 7, 3)] * 3
    assert [layer.input_size for layer in rnn.layers] == [5, 8, 11]  # input + all earlier layers
    assert rnn.get_output_dim() == 9


def test_each_layer_reads_the_input_and_every_earlier_output():
    rnn = _lstm().eval()
    x = torch.randn(2, 4, 5)
    outputs = rnn(x)
    expected, _ = rnn.layers[2](torch.cat([x, outputs[0], outputs[1]], dim=-1))
    assert torch.allclose(outputs[2], expected)


def test_layer_dropout_withholds_outputs_from_later_layers_but_returns_them():
    rnn = _lstm(layer_dropout=0.999999).train()  # every layer dropped (probability ~1)
    x = torch.randn(2, 4, 5)
    outputs = rnn(x)
    first, _ = rnn.layers[0](x)
    assert torch.allclose(outputs[0], first) and outputs[0].abs().sum() > 0  # still returned
    zeros = torch.zeros(2, 4, 3)
    second, _ = rnn.layers[1](torch.cat([x, zeros], dim=-1))
    third, _ = rnn.layers[2](torch.cat([x, zeros, zeros], dim=-1))
    assert torch.allclose(outputs[1], second) and torch.allclose(outputs[2], third)
    # evaluation ignores layer dropout
    rnn.eval()
    evaluated = rnn(x)
    expected, _ = rnn.layers[1](torch.cat([x, evaluated[0]], dim=-1))
    assert torch.allclose(evaluated[1], expected) and not torch.allclose(evaluated[1], second)


def test_layer_dropout_drops_about_the_configured_share():
    rnn = _lstm(layer_dropout=0.5).train()
    x = torch.randn(1, 3, 5)
    torch.manual_seed(1)
    full = _lstm().eval()
    full.load_state_dict(rnn.state_dict())
    reference = full(x)[1]
    changed = sum(not torch.allclose(rnn(x)[1], reference) for _ in range(200))
    assert 70 < changed < 130  # layer 0 withheld from layer 1 in about half of the batches


def test_gates_scale_outputs_and_what_later_layers_see():
    rnn = _lstm().eval()
    x = torch.randn(2, 4, 5)
    gated = rnn(x, torch.tensor([1.0, 0.0, 0.5]))
    assert torch.count_nonzero(gated[1]) == 0
    first, _ = rnn.layers[0](x)
    third, _ = rnn.layers[2](torch.cat([x, first, torch.zeros(2, 4, 3)], dim=-1))
    assert torch.allclose(gated[2], 0.5 * third)
    with pytest.raises(ValueError):
        rnn(x, torch.ones(2))


def test_kept_copy_matches_the_gated_network_and_holds_fewer_weights():
    rnn = _lstm().eval()
    x = torch.randn(3, 6, 5)
    gated = rnn(x, torch.tensor([1.0, 0.0, 1.0]))
    pruned = rnn.kept_copy([0, 2]).eval()
    outputs = pruned(x)
    assert torch.allclose(outputs[0], gated[0], atol=1e-6) and torch.allclose(outputs[1], gated[2], atol=1e-6)
    assert pruned.layers[1].weight_ih_l0.shape == (12, 8)  # was (12, 11): layer 1's 3 columns removed
    assert sum(p.numel() for p in pruned.parameters()) < sum(p.numel() for p in rnn.parameters())
    assert kept_input_columns(5, 3, [0, 2]) == [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 13]


def test_bad_sizes_are_configuration_errors():
    with pytest.raises(ConfigurationError):
        DenseLstm(input_dim=0, hidden_dim=3, num_layers=2)
    with pytest.raises(ConfigurationError):
        DenseLstm(input_dim=3, hidden_dim=3, num_layers=2, layer_dropout=1.0)
