"""The one place the exporters read AllenNLP's private attributes, each behind a named, typed function.

An exporter has to know things AllenNLP keeps private: the torch module inside a `PytorchSeq2SeqWrapper`,
the character encoder inside a `TokenCharactersEncoder`, an indexer's start tokens, the CRF's allowed
transitions. Reading them here, and nowhere else in `green_nlp.export`, keeps the list of what the
exporters depend on short and in one file: when AllenNLP changes one of them, one function fails with a
message naming the attribute, instead of an `AttributeError` deep inside an export.

Every attribute below was read against allennlp 2.10.1 (its last release, 2022) and is checked once, at
import, against the installed release as `green_nlp.patches.versions` checks patches. Another release
only warns: each read fails loudly by itself if the attribute is gone, and the exporters' tests compare
the exported graph with the model.
"""

import logging
from dataclasses import dataclass
from typing import Any, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenCharactersIndexer
from allennlp.models import Model
from allennlp.modules import ConditionalRandomField, TimeDistributed
from allennlp.modules.seq2seq_encoders import PytorchSeq2SeqWrapper
from allennlp.modules.seq2vec_encoders import CnnEncoder, PytorchSeq2VecWrapper, Seq2VecEncoder
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder, TextFieldEmbedder
from allennlp.modules.token_embedders import Embedding, TokenCharactersEncoder, TokenEmbedder
from torch import nn

from green_nlp.patches.versions import ALLENNLP_VERSION, WrittenFor, installed_version

logger = logging.getLogger(__name__)

READ_AGAINST = WrittenFor("allennlp", ALLENNLP_VERSION)


def allennlp_matches() -> bool:
    """True when the installed allennlp is the release these reads were written against; else warns."""
    found = installed_version(READ_AGAINST.package)
    if found == READ_AGAINST.version:
        return True
    logger.warning(
        "green_nlp's exporters read private attributes of allennlp %s, but allennlp %s is installed; "
        "an export may fail on a renamed attribute (see green_nlp/export/allennlp_internals.py).",
        READ_AGAINST.version,
        found or "(not installed)",
    )
    return False


ALLENNLP_MATCHES = allennlp_matches()


def _private(owner: Any, name: str) -> Any:
    """`owner.<name>`, or an error naming the attribute and the release it was read against."""
    try:
        return getattr(owner, name)
    except AttributeError:
        raise ConfigurationError(
            f"cannot export: {type(owner).__name__}.{name} is missing in allennlp "
            f"{installed_version('allennlp') or '(not installed)'}; green_nlp's exporter reads it as "
            f"allennlp {READ_AGAINST.version} names it"
        ) from None


# ---------------------------------------------------------------- modules
def token_embedders(embedder: TextFieldEmbedder) -> dict[str, TokenEmbedder]:
    """A `BasicTextFieldEmbedder`'s token embedders by indexer key, in its own (insertion) order."""
    if not isinstance(embedder, BasicTextFieldEmbedder):
        raise ConfigurationError(f"cannot export: text field embedder {type(embedder).__name__} has no token embedders")
    return dict(_private(embedder, "_token_embedders"))


def inner_module(module: nn.Module) -> nn.Module:
    """The torch module a `PytorchSeq2SeqWrapper`, `PytorchSeq2VecWrapper` or `TimeDistributed`
    wraps; any other module is returned as it is (so an error message can name what is inside)."""
    if isinstance(module, (PytorchSeq2SeqWrapper, PytorchSeq2VecWrapper, TimeDistributed)):
        inner: nn.Module = _private(module, "_module")
        return inner
    return module


def wrapped_lstm(wrapper: nn.Module) -> nn.LSTM:
    """The `nn.LSTM` inside an allennlp LSTM wrapper (`lstm` seq2seq or seq2vec encoder)."""
    lstm = inner_module(wrapper)
    if not isinstance(lstm, nn.LSTM):
        raise ConfigurationError(f"cannot export: {type(wrapper).__name__} wraps {type(lstm).__name__}, not an LSTM")
    return lstm


def _characters_encoder(token_embedder: TokenEmbedder) -> TokenCharactersEncoder:
    if not isinstance(token_embedder, TokenCharactersEncoder):
        raise ConfigurationError(f"cannot export: {type(token_embedder).__name__} is not a character encoder")
    return token_embedder


def character_encoder(token_embedder: TokenEmbedder) -> Seq2VecEncoder:
    """The seq2vec encoder (e.g. `cnn`, `lstm`) a `TokenCharactersEncoder` runs over each word's characters."""
    encoder = inner_module(_private(_characters_encoder(token_embedder), "_encoder"))
    if not isinstance(encoder, Seq2VecEncoder):
        raise ConfigurationError(f"cannot export: character encoder {type(encoder).__name__} is not a Seq2VecEncoder")
    return encoder


def character_embedding(token_embedder: TokenEmbedder) -> Embedding:
    """The character `Embedding` of a `TokenCharactersEncoder`, without its `TimeDistributed` wrapper."""
    embedding = inner_module(_private(_characters_encoder(token_embedder), "_embedding"))
    if not isinstance(embedding, Embedding):
        raise ConfigurationError(f"cannot export: character embedding {type(embedding).__name__} is not an Embedding")
    return embedding


def widest_kernel(cnn: CnnEncoder) -> int:
    """The widest filter of a `CnnEncoder`: a word shorter than it must be padded to it."""
    layers: list[nn.Conv1d] = _private(cnn, "_convolution_layers")
    return max(int(layer.kernel_size[0]) for layer in layers)


def allowed_transitions(crf: ConditionalRandomField) -> torch.Tensor:
    """The CRF's (tags + 2) x (tags + 2) 0/1 constraint mask (row/column `tags` is the start,
    `tags + 1` the end), as `ConditionalRandomField.viterbi_tags` applies it."""
    mask: torch.Tensor = _private(crf, "_constraint_mask")
    return mask.detach()


# --------------------------------------------------------------- indexers
def _texts(tokens: Any) -> tuple[str, ...]:
    """Start/end tokens as text: an indexer keeps `Token`s, a character tokenizer strings or ints."""
    return tuple(str(getattr(token, "text", token)) for token in tokens)


@dataclass(frozen=True)
class SingleIdSettings:
    """What a `SingleIdTokenIndexer` does to a word besides looking it up in `namespace`."""

    namespace: Optional[str]
    lowercase: bool
    start_tokens: tuple[str, ...]
    end_tokens: tuple[str, ...]
    feature_name: str  # the Token attribute indexed: "text" unless configured otherwise


def single_id_settings(indexer: SingleIdTokenIndexer) -> SingleIdSettings:
    """The settings of a `SingleIdTokenIndexer` (or a subclass) the runtime must repeat."""
    return SingleIdSettings(
        namespace=indexer.namespace,
        lowercase=bool(indexer.lowercase_tokens),
        start_tokens=_texts(_private(indexer, "_start_tokens")),
        end_tokens=_texts(_private(indexer, "_end_tokens")),
        feature_name=str(_private(indexer, "_feature_name")),
    )


@dataclass(frozen=True)
class CharacterSettings:
    """A `TokenCharactersIndexer` and its `CharacterTokenizer`: how a word becomes character ids."""

    namespace: str
    min_padding_length: int
    start_tokens: tuple[str, ...]  # the indexer's, added around each word's characters
    end_tokens: tuple[str, ...]
    byte_encoding: Optional[str]  # the tokenizer's: None for characters, else e.g. "utf-8"
    lowercase: bool
    tokenizer_start_tokens: tuple[str, ...]  # the tokenizer's own, in configured order
    tokenizer_end_tokens: tuple[str, ...]


def character_settings(indexer: TokenCharactersIndexer) -> CharacterSettings:
    """The settings of a `TokenCharactersIndexer` and its tokenizer the runtime must repeat."""
    tokenizer = _private(indexer, "_character_tokenizer")
    return CharacterSettings(
        namespace=str(_private(indexer, "_namespace")),
        min_padding_length=int(_private(indexer, "_min_padding_length")),
        start_tokens=_texts(_private(indexer, "_start_tokens")),
        end_tokens=_texts(_private(indexer, "_end_tokens")),
        byte_encoding=_private(tokenizer, "_byte_encoding"),
        lowercase=bool(_private(tokenizer, "_lowercase_characters")),
        # the tokenizer keeps its start tokens reversed (it inserts them one by one at position 0)
        tokenizer_start_tokens=_texts(reversed(_private(tokenizer, "_start_tokens"))),
        tokenizer_end_tokens=_texts(_private(tokenizer, "_end_tokens")),
    )


# ------------------------------------------------------ vocabulary, models
def oov_token(vocab: Vocabulary) -> str:
    """The token a vocabulary maps unknown words to (`@@UNKNOWN@@` unless configured otherwise)."""
    return str(_private(vocab, "_oov_token"))


def registered_model_name(model: Model) -> Optional[str]:
    """The name `model`'s class is registered under as a `Model` (its config `type`), or None."""
    registry: dict[str, tuple[type, Optional[str]]] = _private(Model, "_registry")[Model]
    return next((name for name, (cls, _) in registry.items() if cls is type(model)), None)


__all__ = [
    "ALLENNLP_MATCHES",
    "READ_AGAINST",
    "CharacterSettings",
    "SingleIdSettings",
    "allowed_transitions",
    "character_embedding",
    "character_encoder",
    "character_settings",
    "inner_module",
    "oov_token",
    "registered_model_name",
    "single_id_settings",
    "token_embedders",
    "widest_kernel",
    "wrapped_lstm",
]
