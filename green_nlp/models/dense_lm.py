"""LD-Net's language model: word embedding -> densely connected LSTM -> projection -> adaptive softmax.

The same class serves two purposes: trained on raw text with `allennlp train` (reporting
perplexity), and, built with `with_softmax=False` inside `green_ldnet_tagger`, as the frozen source of
contextual layer outputs; there `pretrained_file` names the trained LM archive to copy.
"""

import logging
import math
from typing import Any, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.nn.util import get_text_field_mask, get_token_ids_from_text_field_tensors
from allennlp.training.metrics import Average

from green_nlp.models.setting_checks import check_dropouts
from green_nlp.modules.dense_lstm import DenseLstm

logger = logging.getLogger(__name__)

DIRECTIONS = ("forward", "backward")
# Architecture arguments an archive must share with the model that copies it.
ARCHITECTURE_KEYS = ("embedding_dim", "hidden_dim", "num_layers", "direction")


def reverse_padded(tensor: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Reverse each row's first `mask.sum()` positions along dim 1; padding stays in place.

    It is its own inverse, so the backward LM reverses its input and then its outputs.
    """
    batch_size, seq_len = mask.shape
    positions = torch.arange(seq_len, device=mask.device).unsqueeze(0).expand(batch_size, seq_len)
    lengths = mask.long().sum(dim=1, keepdim=True)  # (batch, 1)
    index = lengths - 1 - positions
    index = torch.where(index >= 0, index, positions)  # (batch, seq_len)
    if tensor.dim() > 2:
        index = index.unsqueeze(-1).expand(*index.shape, *tensor.shape[2:])
    return tensor.gather(1, index)


@Model.register("green_dense_lm")
class DenseLanguageModel(Model):
    """
    A one-directional LM over sentences: word `t` (in `direction` order) predicts word `t + 1`.

    # Parameters

    vocab : `Vocabulary`
    embedding_dim : `int`
    hidden_dim : `int`
        Units per LSTM layer (the dense "growth").
    num_layers : `int`
    projection_dim : `int`, optional (default = `embedding_dim`)
        The ReLU projection of `[embedding, layer outputs]` that feeds the softmax.
    direction : `str`, optional (default = `"forward"`)
        `"backward"` reads each sentence right to left (outputs are returned in text order).
    dropout : `float`, optional
        Dropout on the embeddings, each layer's input and the projection.
    layer_dropout : `float`, optional
        LD-Net's layer-wise dropout (see `DenseLstm`).
    cutoffs : `List[int]`, optional (default = `[2000, 10000]`)
        Adaptive-softmax cluster boundaries; those not below the vocabulary size are dropped.
    namespace : `str`, optional (default = `"tokens"`)
        Vocabulary namespace of the words (and the key of the text field's indexer).
    with_softmax : `bool`, optional (default = `True`)
        `False` builds only embedding + LSTM, for use as contextual features in a tagger.
    pretrained_file : `str`, optional
        A trained `green_dense_lm` archive: its vocabulary is copied into `namespace` and its
        weights into this model (architecture arguments must match). Read only while training:
        a saved model's archive already holds both, so it is dropped when the model is reloaded
        (by AllenNLP for a standalone LM, by `green_ldnet_tagger` for the LMs in its list).
    """

    namespace: str  # set in __init__, read off a pretrained LM before this one sets its own

    def __init__(
        self,
        vocab: Vocabulary,
        embedding_dim: int,
        hidden_dim: int,
        num_layers: int,
        projection_dim: Optional[int] = None,
        direction: str = "forward",
        dropout: float = 0.0,
        layer_dropout: float = 0.0,
        cutoffs: Optional[list[int]] = None,
        namespace: str = "tokens",
        with_softmax: bool = True,
        pretrained_file: Optional[str] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        check_dropouts("green_dense_lm", dropout=dropout, layer_dropout=layer_dropout)
        if direction not in DIRECTIONS:
            raise ConfigurationError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
        pretrained = _load_pretrained(pretrained_file) if pretrained_file else None
        if pretrained is not None and pretrained_file is not None:
            _check_same_architecture(
                pretrained_file,
                pretrained,
                dict(embedding_dim=embedding_dim, hidden_dim=hidden_dim, num_layers=num_layers, direction=direction),
            )
            _copy_namespace(pretrained.vocab, pretrained.namespace, vocab, namespace, pretrained_file)
        vocab_size = vocab.get_vocab_size(namespace)
        if vocab_size <= 2:
            raise ConfigurationError(
                f"the vocabulary namespace {namespace!r} is empty: give the LM training text, or "
                f"`pretrained_file` naming a trained green_dense_lm archive"
            )
        self.namespace = namespace
        self.direction = direction
        self.embedding_dim = embedding_dim
        self.with_softmax = with_softmax
        self.embedding = torch.nn.Embedding(vocab_size, embedding_dim, padding_idx=0)
        self.dropout = torch.nn.Dropout(dropout)
        self.rnn = DenseLstm(embedding_dim, hidden_dim, num_layers, dropout=dropout, layer_dropout=layer_dropout)
        self.projection_dim = projection_dim or embedding_dim
        if with_softmax:
            self.projection = torch.nn.Linear(embedding_dim + self.rnn.get_output_dim(), self.projection_dim)
            kept_cutoffs = [c for c in (cutoffs or [2000, 10000]) if 0 < c < vocab_size - 1]
            if not kept_cutoffs:
                kept_cutoffs = [max(1, (vocab_size - 1) // 2)]
            self.softmax = torch.nn.AdaptiveLogSoftmaxWithLoss(
                self.projection_dim, vocab_size, kept_cutoffs, div_value=4.0
            )
        self._nll = Average()
        if pretrained is not None and pretrained_file is not None:
            self._copy_weights(pretrained, pretrained_file)

    def _copy_weights(self, pretrained: "DenseLanguageModel", pretrained_file: str) -> None:
        source = pretrained.state_dict()
        target = self.state_dict()
        missing = [name for name in target if name not in source]
        if missing:
            raise ConfigurationError(f"{pretrained_file} lacks weights {missing} (was it trained without a softmax?)")
        self.load_state_dict({name: source[name] for name in target})
        logger.info("copied %d LM tensors from %s", len(target), pretrained_file)

    def get_output_dim(self) -> int:
        """Size of the concatenated layer outputs that `layer_outputs` returns."""
        return self.rnn.get_output_dim()

    def layer_outputs(
        self, token_ids: torch.Tensor, mask: torch.Tensor, gates: Optional[torch.Tensor] = None
    ) -> list[torch.Tensor]:
        """Each layer's `(batch, seq_len, hidden_dim)` output, in text order, times its gate."""
        embedded = self._embed(token_ids, mask)
        outputs = self.rnn(embedded, gates)
        if self.direction == "backward":
            outputs = [reverse_padded(output, mask) for output in outputs]
        return outputs

    def _embed(self, token_ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        if self.direction == "backward":
            token_ids = reverse_padded(token_ids, mask)
        return self.dropout(self.embedding(token_ids))  # (batch, seq_len, embedding_dim)

    def forward(self, tokens: TextFieldTensors) -> dict[str, torch.Tensor]:
        if not self.with_softmax:
            raise ConfigurationError("this LM was built with with_softmax=False and cannot score text")
        mask = get_text_field_mask(tokens)  # (batch, seq_len)
        token_ids = get_token_ids_from_text_field_tensors(tokens)
        if self.direction == "backward":  # everything below runs in reading order
            token_ids = reverse_padded(token_ids, mask)
        embedded = self.dropout(self.embedding(token_ids))
        layers = self.rnn(embedded)
        # (batch, seq_len, projection_dim)
        projected = self.dropout(torch.relu(self.projection(torch.cat([embedded] + layers, dim=-1))))
        # position t predicts word t + 1
        target_mask = mask[:, 1:] & mask[:, :-1]
        inputs = projected[:, :-1][target_mask]  # (num_targets, projection_dim)
        targets = token_ids[:, 1:][target_mask]  # (num_targets,)
        output: dict[str, torch.Tensor] = {}
        if targets.numel() == 0:  # single-word sentences only: nothing to predict
            output["loss"] = projected.sum() * 0.0
            return output
        log_probs, loss = self.softmax(inputs, targets)
        self._nll(float(-log_probs.detach().sum()) / targets.numel())
        output["loss"] = loss
        return output

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        nll = self._nll.get_metric(reset)
        return {"nll": nll, "perplexity": math.exp(min(nll, 50.0))}


def _load_pretrained(pretrained_file: str) -> DenseLanguageModel:
    from allennlp.models.archival import load_archive  # deferred: imports the whole model zoo

    model = load_archive(pretrained_file).model
    if not isinstance(model, DenseLanguageModel):
        raise ConfigurationError(f"{pretrained_file} holds a {type(model).__name__}, not a green_dense_lm")
    return model


def _check_same_architecture(path: str, pretrained: DenseLanguageModel, wanted: dict[str, Any]) -> None:
    found = dict(
        embedding_dim=pretrained.embedding_dim,
        hidden_dim=pretrained.rnn.hidden_dim,
        num_layers=pretrained.rnn.num_layers,
        direction=pretrained.direction,
    )
    different = {key: (wanted[key], found[key]) for key in ARCHITECTURE_KEYS if wanted[key] != found[key]}
    if different:
        raise ConfigurationError(
            f"the LM config does not match {path}: "
            + ", ".join(
                f"{key} is {mine} here but {theirs} in the archive" for key, (mine, theirs) in different.items()
            )
        )


def _copy_namespace(
    source: Vocabulary, source_namespace: str, target: Vocabulary, target_namespace: str, path: str
) -> None:
    """Give `target_namespace` exactly the archive's word ids (or check it already has them)."""
    words = [source.get_token_from_index(i, source_namespace) for i in range(source.get_vocab_size(source_namespace))]
    if target.get_vocab_size(target_namespace) > 2:
        existing = [
            target.get_token_from_index(i, target_namespace) for i in range(target.get_vocab_size(target_namespace))
        ]
        if existing != words:
            raise ConfigurationError(
                f"vocabulary namespace {target_namespace!r} differs from the vocabulary of {path}; train the "
                f"forward and backward LMs on the same text so they share one vocabulary"
            )
        return
    target.add_tokens_to_namespace(words[2:], target_namespace)  # 0 and 1: padding and OOV
    copied = [target.get_token_from_index(i, target_namespace) for i in range(len(words))]
    if copied != words:
        raise ConfigurationError(f"could not copy the vocabulary of {path} into {target_namespace!r} id for id")
