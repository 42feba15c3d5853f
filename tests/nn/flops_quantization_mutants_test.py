"""Hand-counted FLOPs of a tagger with a character LSTM, and the int8 copy's LSTMs really int8."""

import pytest
import torch
from allennlp.modules.seq2vec_encoders import LstmSeq2VecEncoder
from allennlp.modules.token_embedders import Embedding, TokenCharactersEncoder
from torch import nn

from green_nlp.nn.flops import ldnet_tagger_flops_per_token
from green_nlp.nn.quantization import quantize_for_cpu


class _Tagger(nn.Module):
    """The attributes `ldnet_tagger_flops_per_token` reads, without language models."""

    def __init__(self) -> None:
        super().__init__()
        characters = TokenCharactersEncoder(
            Embedding(embedding_dim=3, num_embeddings=10),
            LstmSeq2VecEncoder(input_size=3, hidden_size=2, bidirectional=True),
        )
        self.text_field_embedder = nn.ModuleDict({"token_characters": characters})
        self.encoder = nn.LSTM(4, 3, bidirectional=True)
        self.tag_projection = nn.Linear(6, 5)


@pytest.mark.parametrize("mean_word_chars, chars", [(5.0, 400.0), (1.0, 80.0), (2.5, 200.0)])
def test_character_lstm_runs_once_per_character(mean_word_chars, chars):
    # by hand: character BiLSTM 2 directions * 4 gates * 2 * (3 + 2) = 80 per character; word BiLSTM
    # 2 * 4 * 3 * (4 + 3) = 168; projection 6 * 5 = 30; CRF 5 ** 2 = 25
    flops = ldnet_tagger_flops_per_token(_Tagger(), mean_word_chars=mean_word_chars)
    assert flops == {"lm": 0.0, "tagger": chars + 168 + 30 + 25, "total": chars + 168 + 30 + 25}


def test_the_int8_copy_quantizes_lstm_and_linear_weights():
    model = nn.Sequential(nn.LSTM(4, 3, num_layers=2, bidirectional=True))
    model.add_module("out", nn.Linear(6, 2))
    quantized = quantize_for_cpu(model)
    kinds = [type(module) for module in quantized.modules()]
    assert nn.LSTM not in kinds and nn.Linear not in kinds  # both replaced, not kept in fp32
    lstm = next(m for m in quantized.modules() if isinstance(m, torch.ao.nn.quantized.dynamic.LSTM))
    weights = [w for w in lstm._all_weight_values]
    assert len(weights) == 4  # 2 layers x 2 directions, each packed int8
    assert quantized.out.weight().dtype == torch.qint8
    assert [type(m) for m in model.modules()][1:] == [nn.LSTM, nn.Linear]  # the original is untouched
    inputs = torch.randn(5, 1, 4)
    with torch.no_grad():
        assert torch.allclose(quantized[0](inputs)[0], model[0](inputs)[0], atol=0.05)
