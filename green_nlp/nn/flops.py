"""FLOPs per word of LD-Net's language models and tagger, counted as the paper's #FLOPs column:
multiply-adds of the matrix products (element-wise gate arithmetic and embedding look-ups are
left out; they are small and the same for every variant)."""

from typing import Any

import torch


def lstm_step_flops(input_dim: int, hidden_dim: int) -> int:
    """One time step of one LSTM direction: the four gates' input and recurrent products."""
    return 4 * hidden_dim * (input_dim + hidden_dim)


def dense_lstm_flops(input_dim: int, hidden_dim: int, num_layers: int) -> int:
    """One word through a densely connected LSTM: layer i reads `input_dim + i * hidden_dim`."""
    return sum(lstm_step_flops(input_dim + i * hidden_dim, hidden_dim) for i in range(num_layers))


def torch_lstm_flops(lstm: torch.nn.LSTM) -> int:
    """One time step of a (possibly multi-layer, bidirectional) `torch.nn.LSTM`."""
    directions = 2 if lstm.bidirectional else 1
    total = 0
    for layer in range(lstm.num_layers):
        input_dim = lstm.input_size if layer == 0 else lstm.hidden_size * directions
        total += directions * lstm_step_flops(input_dim, lstm.hidden_size)
    return total


def ldnet_lm_flops_per_token(model: torch.nn.Module) -> int:
    """LM FLOPs per word of an `green_ldnet_tagger` (all its LMs; 0 for NoLM)."""
    return sum(
        dense_lstm_flops(lm.rnn.input_dim, lm.rnn.hidden_dim, lm.rnn.num_layers)
        for lm in getattr(model, "language_models", [])
    )


def ldnet_tagger_flops_per_token(model: Any, mean_word_chars: float) -> dict[str, float]:
    """FLOPs per word of an `green_ldnet_tagger`, split into LMs and the rest.

    Character LSTMs (inside the text field embedder) run `mean_word_chars` steps per word (the
    paper uses CoNLL-03's average word length); the word BiLSTM one; the CRF's Viterbi costs
    `num_tags ** 2` per word.
    """
    from allennlp.modules.token_embedders import TokenCharactersEncoder

    chars = 0.0
    for module in model.text_field_embedder.modules():
        if isinstance(module, TokenCharactersEncoder):
            chars += mean_word_chars * sum(
                torch_lstm_flops(m) for m in module.modules() if isinstance(m, torch.nn.LSTM)
            )
    words = sum(torch_lstm_flops(m) for m in model.encoder.modules() if isinstance(m, torch.nn.LSTM))
    linears = model.tag_projection.in_features * model.tag_projection.out_features
    if getattr(model, "language_models", None):
        linears += model.lm_projection.in_features * model.lm_projection.out_features
    num_tags = model.tag_projection.out_features
    lm = ldnet_lm_flops_per_token(model)
    rest = chars + words + linears + num_tags**2
    return {"lm": float(lm), "tagger": float(rest), "total": float(lm + rest)}
