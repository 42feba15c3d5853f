"""ONNX export of the LD-Net tagger (`green_ldnet_tagger`: with its LMs, pruned, or NoLM).

The graph takes word, character and LM word ids and returns the per-word tag scores (the CRF's
emissions); Viterbi decoding stays outside it, in numpy (`green_nlp.runtime.tagger_viterbi`),
from the CRF's transition scores and BIOES constraint mask written to the JSON file: a loop over
time with a data-dependent backtrace is short in numpy and would be an ONNX Loop in the graph, and
in numpy it is checked path for path against allennlp's decoder.
"""

import warnings
from pathlib import Path
from typing import Any, Optional, cast

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TokenIndexer, Vocabulary
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenCharactersIndexer
from allennlp.modules.seq2seq_encoders import PytorchSeq2SeqWrapper
from allennlp.modules.seq2vec_encoders import CnnEncoder, PytorchSeq2VecWrapper
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import Embedding, TokenCharactersEncoder
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from green_nlp.dataset_readers.lm_text import LmTokenIndexer
from green_nlp.export import allennlp_internals as internals
from green_nlp.export.parser import (
    TOKENIZER,
    _indexer,
    _name_constant_outputs,
    _oov_index,
    _vocabulary,
    _word_input,
)
from green_nlp.models.dense_lm import DenseLanguageModel
from green_nlp.models.ldnet_tagger import LABELS, LdNetTagger
from green_nlp.names import LDNET_TAGGER
from green_nlp.nn.viterbi import IMPOSSIBLE

OPSET = 17
MODEL_TYPE = LDNET_TAGGER
READER_TYPE = "green_conll_tagging"
LABEL_ENCODING = "BIOES"
OUTPUT_NAME = "logits"


def _unsupported(part: str) -> ConfigurationError:
    return ConfigurationError(f"cannot export this {MODEL_TYPE}: {part} is not supported by the ONNX exporter")


def _token_embedders(model: LdNetTagger) -> dict[str, Any]:
    """The tagger's token embedders by indexer key."""
    return internals.token_embedders(model.text_field_embedder)


def _language_models(model: LdNetTagger) -> list[DenseLanguageModel]:
    """The tagger's language models, typed (a ModuleList yields plain Modules)."""
    return [cast(DenseLanguageModel, lm) for lm in model.language_models]


class CharacterLstm(nn.Module):
    """A word's characters -> the final states of an LSTM, as allennlp's `PytorchSeq2VecWrapper`
    computes them (top layer, both directions; zeros for a word without characters). The wrapper
    branches in Python on how many words in the batch are empty, which tracing would freeze; this
    packs every word instead (an empty one as length 1) and zeroes the empty ones afterwards.

    The final states are read off the top layer's outputs (forward: at the last character,
    backward: at the first), the same numbers as `h_n`: the ONNX exporter only handles a packed
    LSTM whose output sequence is unpacked."""

    def __init__(self, encoder: TokenCharactersEncoder) -> None:
        super().__init__()
        self.embedding = internals.character_embedding(encoder)
        self.lstm: nn.LSTM = internals.wrapped_lstm(internals.character_encoder(encoder))
        self.hidden = self.lstm.hidden_size

    def forward(self, char_ids: torch.Tensor) -> torch.Tensor:
        batch, words, width = char_ids.shape
        flat = char_ids.reshape(batch * words, width)
        lengths = (flat != 0).sum(-1)
        packed = pack_padded_sequence(
            self.embedding(flat), lengths.clamp(min=1), batch_first=True, enforce_sorted=False
        )
        # (batch * words, width, directions * hidden)
        outputs, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=width)
        last = (lengths.clamp(min=1) - 1).view(-1, 1, 1).expand(-1, 1, self.hidden)
        final = outputs[:, :, : self.hidden].gather(1, last).squeeze(1)
        if self.lstm.bidirectional:
            final = torch.cat([final, outputs[:, 0, self.hidden :]], dim=-1)
        final = final * (lengths > 0).unsqueeze(-1).to(final.dtype)
        return final.reshape(batch, words, -1)


class TaggerGraph(nn.Module):
    """Export-only view of a trained tagger: `LdNetTagger._score` in eval mode, wired for tracing.

    The embedders run in the order `BasicTextFieldEmbedder` runs them (sorted keys); the LM
    features are the model's own `lm_features`; the BiLSTM runs on a packed sequence directly, as
    in `green_nlp.export.parser.ParserGraph`.
    """

    def __init__(self, model: LdNetTagger, embedder_kinds: dict[str, str]) -> None:
        super().__init__()
        self.model = model
        self.kinds = embedder_kinds
        embedders = _token_embedders(model)
        self.char_lstm = nn.ModuleDict(
            {key: CharacterLstm(embedders[key]) for key, kind in embedder_kinds.items() if kind == "char_lstm"}
        )
        self.lstm = internals.wrapped_lstm(model.encoder)

    def forward(
        self, word_ids: torch.Tensor, char_ids: Optional[torch.Tensor] = None, lm_ids: Optional[torch.Tensor] = None
    ) -> torch.Tensor:
        model = self.model
        mask = word_ids != 0
        embedders = _token_embedders(model)
        features = []
        for key in sorted(self.kinds):
            kind = self.kinds[key]
            if kind == "words":
                features.append(embedders[key](word_ids))
            elif kind == "char_lstm":
                features.append(self.char_lstm[key](char_ids))
            else:  # char_cnn: allennlp's own module traces as it is
                features.append(embedders[key](char_ids))
        if model.language_models:
            assert lm_ids is not None  # the graph takes LM ids whenever the model has LMs
            features.append(model.lm_features({model.lm_indexer_key: {"tokens": lm_ids}}, mask))
        embedded = torch.cat(features, dim=-1)
        packed = pack_padded_sequence(embedded, mask.sum(-1), batch_first=True, enforce_sorted=False)
        # (batch, words, encoder_dim)
        encoded, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=embedded.size(1))
        return model.tag_projection(encoded)


# ------------------------------------------------------------------ checks
def _reader_config(config: dict[str, Any]) -> dict[str, Any]:
    """The reader the predictor uses: the validation reader when the config has one."""
    reader = config.get("validation_dataset_reader") or config.get("dataset_reader") or {}
    if reader.get("type") != READER_TYPE:
        raise _unsupported(f"dataset reader type {reader.get('type')!r} (the runtime reproduces {READER_TYPE!r})")
    if reader.get("label_encoding", LABEL_ENCODING) != LABEL_ENCODING:
        raise _unsupported(f"reader label_encoding {reader.get('label_encoding')!r} (the tagger decodes BIOES)")
    return reader


def embedder_kinds(model: LdNetTagger) -> dict[str, str]:
    """Token embedder key -> "words", "char_lstm" or "char_cnn", checking the runtime can feed each."""
    embedder = model.text_field_embedder
    if type(embedder) is not BasicTextFieldEmbedder:
        raise _unsupported(f"text field embedder {type(embedder).__name__}")
    kinds: dict[str, str] = {}
    for key, token_embedder in internals.token_embedders(embedder).items():
        if type(token_embedder) is Embedding and "words" not in kinds.values():
            kinds[key] = "words"
        elif type(token_embedder) is TokenCharactersEncoder and not {"char_lstm", "char_cnn"} & set(kinds.values()):
            encoder = internals.character_encoder(token_embedder)
            inner = internals.inner_module(encoder)
            if type(encoder) is CnnEncoder:
                kinds[key] = "char_cnn"
            elif isinstance(encoder, PytorchSeq2VecWrapper) and type(inner) is nn.LSTM:
                kinds[key] = "char_lstm"
            else:
                raise _unsupported(
                    f"character encoder {type(inner).__name__} of token embedder {key!r} (only 'lstm' and 'cnn')"
                )
        else:
            raise _unsupported(
                f"token embedder {key!r} of type {type(token_embedder).__name__} "
                "(one 'embedding' and at most one 'character_encoding')"
            )
    if "words" not in kinds.values():
        raise _unsupported("a model without a word 'embedding' token embedder")
    return kinds


def _check_encoder(model: LdNetTagger) -> None:
    encoder = model.encoder
    inner = internals.inner_module(encoder)
    if not isinstance(encoder, PytorchSeq2SeqWrapper) or type(inner) is not nn.LSTM:
        raise _unsupported(f"encoder {type(inner).__name__} (only 'lstm')")
    if encoder.stateful:
        raise _unsupported("a stateful 'lstm' encoder")


# --------------------------------------------------------------- metadata
def _char_input(vocab: Vocabulary, indexer: TokenIndexer, key: str, kind: str, model: LdNetTagger) -> dict[str, Any]:
    if type(indexer) is not TokenCharactersIndexer:
        raise _unsupported(f"token indexer {key!r} of type {type(indexer).__name__} for a character encoder")
    settings = internals.character_settings(indexer)
    extras = {
        "start tokens": bool(settings.start_tokens or settings.tokenizer_start_tokens),
        "end tokens": bool(settings.end_tokens or settings.tokenizer_end_tokens),
        "a byte encoding": settings.byte_encoding is not None,
    }
    if any(extras.values()):
        extra_names = " and ".join(name for name, on in extras.items() if on)
        raise _unsupported(f"characters indexer {key!r} with {extra_names}")
    width = settings.min_padding_length
    if kind == "char_cnn":  # a word shorter than the widest filter is padded to it, as the indexer pads
        cnn = internals.character_encoder(_token_embedders(model)[key])
        assert isinstance(cnn, CnnEncoder)  # `embedder_kinds` said "char_cnn"
        width = max(width, internals.widest_kernel(cnn))
    return {
        "input": "char_ids",
        "namespace": settings.namespace,
        "lowercase": settings.lowercase,
        "min_padding_length": width,
        "vocabulary": _vocabulary(vocab, settings.namespace),
        "oov_index": _oov_index(vocab, settings.namespace),
    }


def _lm_input(vocab: Vocabulary, indexer: TokenIndexer, model: LdNetTagger) -> dict[str, Any]:
    key = model.lm_indexer_key
    if not isinstance(indexer, LmTokenIndexer) and type(indexer) is not SingleIdTokenIndexer:
        raise _unsupported(f"LM token indexer {key!r} of type {type(indexer).__name__}")
    assert isinstance(indexer, SingleIdTokenIndexer)  # an LmTokenIndexer is one
    settings = internals.single_id_settings(indexer)
    namespace = _language_models(model)[0].namespace
    if (
        settings.namespace != namespace
        or settings.start_tokens
        or settings.end_tokens
        or settings.feature_name != "text"
    ):
        raise _unsupported(
            f"LM indexer {key!r} with start/end tokens, a feature or a namespace other than the LMs' {namespace!r}"
        )
    return {
        "input": "lm_ids",
        "namespace": namespace,
        "lowercase": settings.lowercase,
        "vocabulary": _vocabulary(vocab, namespace),
        "oov_index": _oov_index(vocab, namespace),
    }


def _labels(vocab: Vocabulary) -> list[str]:
    labels = _vocabulary(vocab, LABELS)
    for label in labels:
        prefix, _, kind = label.partition("-")
        if label != "O" and (prefix not in ("B", "I", "E", "S") or not kind):
            raise _unsupported(f"tag {label!r} (the runtime's spans read BIOES tags)")
    return labels


def crf_metadata(model: LdNetTagger) -> dict[str, Any]:
    """The CRF's scores and its BIOES constraint mask, for Viterbi in numpy. `allowed` is
    (tags + 2) x (tags + 2): row/column `tags` is the start, `tags + 1` the end; a forbidden
    transition scores `impossible` there, as `ConditionalRandomField.viterbi_tags` scores it."""
    crf = model.crf
    with_ends = bool(crf.include_start_end_transitions)
    return {
        "transitions": crf.transitions.detach().tolist(),
        "start_transitions": crf.start_transitions.detach().tolist() if with_ends else None,
        "end_transitions": crf.end_transitions.detach().tolist() if with_ends else None,
        "allowed": internals.allowed_transitions(crf).to(torch.int64).tolist(),
        "impossible": IMPOSSIBLE,
    }


def tagger_metadata(model: LdNetTagger, config: dict[str, Any]) -> dict[str, Any]:
    """Everything the runtime needs besides the graph, checking the model is exportable."""
    _check_encoder(model)
    reader = _reader_config(config)
    kinds = embedder_kinds(model)
    vocab = model.vocab
    inputs: dict[str, Any] = {}
    for key, kind in kinds.items():
        indexer = _indexer(reader, key)
        if kind == "words":
            inputs["words"] = _word_input(vocab, indexer, key)
        else:
            inputs["characters"] = _char_input(vocab, indexer, key, kind, model)
    if model.language_models:
        inputs["lm"] = _lm_input(vocab, _indexer(reader, model.lm_indexer_key), model)
    return {
        "model_type": MODEL_TYPE,
        "inputs": inputs,
        "outputs": {"logits": OUTPUT_NAME},
        "labels": _labels(vocab),
        "label_encoding": LABEL_ENCODING,
        "crf": crf_metadata(model),
        "language_models": [
            {"direction": lm.direction, "layers": lm.rnn.num_layers, "hidden_dim": lm.rnn.hidden_dim}
            for lm in _language_models(model)
        ],
        "tokenizer": dict(TOKENIZER),
    }


# ------------------------------------------------------------------ export
def _example_inputs(meta: dict[str, Any]) -> dict[str, torch.Tensor]:
    """Two sentences of 3 and 5 words, longest second, so tracing sees padding; a word with 0 and
    one with 4 characters."""
    word_ids = torch.tensor([[2, 2, 2, 0, 0], [2, 2, 2, 2, 2]])
    example = {"word_ids": word_ids}
    if "characters" in meta["inputs"]:
        width = max(4, meta["inputs"]["characters"]["min_padding_length"])
        chars = torch.zeros(2, 5, width, dtype=torch.long)
        chars[word_ids != 0, 0] = 2
        chars[1, 4, :4] = 2
        example["char_ids"] = chars
    if "lm" in meta["inputs"]:
        example["lm_ids"] = (word_ids != 0).long() * 2
    return example


def export_onnx(model: LdNetTagger, meta: dict[str, Any], path: Path) -> None:
    """Trace `TaggerGraph` into an ONNX file with batch, word and character axes dynamic."""
    graph = TaggerGraph(model, embedder_kinds(model)).eval()
    example = _example_inputs(meta)
    input_names = list(example)
    axes: dict[str, dict[int, str]] = {
        "word_ids": {0: "batch", 1: "words"},
        "lm_ids": {0: "batch", 1: "words"},
        "char_ids": {0: "batch", 1: "words", 2: "characters"},
        OUTPUT_NAME: {0: "batch", 1: "words"},
    }
    # Positional in `TaggerGraph.forward`'s order; a missing input is None and not a graph input.
    args: tuple[Optional[torch.Tensor], ...] = (example["word_ids"], example.get("char_ids"), example.get("lm_ids"))
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the TorchScript exporter announces its deprecation
        torch.onnx.export(
            graph,
            args,
            str(path),
            dynamo=False,
            opset_version=OPSET,
            input_names=input_names,
            output_names=[OUTPUT_NAME],
            do_constant_folding=True,
            dynamic_axes={name: axes[name] for name in input_names + [OUTPUT_NAME]},
        )
    _name_constant_outputs(path, [OUTPUT_NAME])


def export(model: LdNetTagger, config_params: Any, output_dir: Path) -> dict[str, Any]:
    """Write `model.onnx` for `model` into `output_dir`; return the tagger's JSON metadata."""
    if not isinstance(model, LdNetTagger):
        raise ConfigurationError(f"expected an {MODEL_TYPE} model, got {type(model).__name__}")
    config = config_params.as_dict(quiet=True) if hasattr(config_params, "as_dict") else dict(config_params)
    meta = tagger_metadata(model, config)
    export_onnx(model, meta, Path(output_dir) / "model.onnx")
    return meta
