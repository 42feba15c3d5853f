"""ONNX export of the biaffine dependency parser (`green_biaffine_parser`, teachers and students).

The graph holds everything up to the scores; tree decoding stays outside it, in the runtime
(`green_nlp.runtime.parser`), because Chu-Liu/Edmonds is data-dependent control flow that ONNX
cannot express. The graph therefore returns the arc scores, each word's best label for its
greedy head (the common case: a trained parser's greedy heads are usually a tree already), and the
label MLP outputs plus the label biaffine weight, so the runtime can score labels for the few words
whose head the maximum spanning tree changes. A model with the LEMMA / FEATS / XPOS heads also
returns each word's best class of each (`<field>_tags`), and the folder's metadata lists the classes
(lemma edit scripts, UFeats strings, XPOS tags), which the runtime turns into CoNLL-U columns;
an archive carrying a lemma dictionary (`export.lemma_lexicon`) also gets it as a file in the folder.
"""

import warnings
from pathlib import Path
from typing import Any, Optional

import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import TokenIndexer, Vocabulary
from allennlp.data.token_indexers import SingleIdTokenIndexer, TokenCharactersIndexer
from allennlp.modules.seq2seq_encoders import LstmSeq2SeqEncoder
from allennlp.modules.seq2vec_encoders import CnnEncoder
from allennlp.modules.text_field_embedders import BasicTextFieldEmbedder
from allennlp.modules.token_embedders import Embedding, TokenCharactersEncoder
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from green_nlp.dataset_readers.conllu_dependencies import DEPREL_NAMESPACE, UPOS_NAMESPACE
from green_nlp.export import allennlp_internals as internals
from green_nlp.export.lemma_lexicon import write_lemma_lexicon
from green_nlp.models.biaffine_parser import _MASKED_SCORE, EXTRA_HEADS, BiaffineDependencyParser
from green_nlp.names import CONLLU_DEPENDENCIES_READER, current_name
from green_nlp.runtime.lemma_choice import TOP_K

OPSET = 17
MODEL_TYPE = "green_biaffine_parser"
# What the runtime re-implements of the `green_dependency_parser` predictor's defaults.
MAX_SENTENCE_LENGTH = 1000
TOKENIZER = {"type": "spacy_blank", "language": "en", "sentencizer": True}


def _unsupported(part: str) -> ConfigurationError:
    return ConfigurationError(f"cannot export this {MODEL_TYPE}: {part} is not supported by the ONNX exporter")


class ParserGraph(nn.Module):
    """Export-only view of a trained parser: its own submodules, wired for tracing.

    Same arithmetic as `BiaffineDependencyParser.score` in eval mode, with two trace-friendly
    changes: the BiLSTM runs on a packed sequence directly (allennlp's wrapper has Python branches
    on the batch that tracing would freeze), and the self-loop mask comes from comparing positions
    (onnxruntime has no boolean EyeLike). The character encoder reads one row per distinct word of
    the batch and each place gathers its word's vector (the same vector, computed once).
    """

    def __init__(self, model: BiaffineDependencyParser, word_key: str, char_key: Optional[str]) -> None:
        super().__init__()
        self.model = model
        self.word_key = word_key
        self.char_key = char_key
        self.lstm = internals.wrapped_lstm(model.encoder)

    def forward(
        self,
        word_ids: torch.Tensor,
        char_ids: Optional[torch.Tensor] = None,
        upos_ids: Optional[torch.Tensor] = None,
        char_index: Optional[torch.Tensor] = None,
    ) -> tuple[torch.Tensor, ...]:
        model = self.model
        # (batch, n, embed_dim)
        embedded = self._embed(word_ids, char_ids, char_index)
        if model.upos_embedding is not None:
            embedded = torch.cat([embedded, model.upos_embedding(upos_ids)], dim=-1)
        batch_size = embedded.size(0)
        # (batch, n+1, input_dim), ROOT first
        embedded = torch.cat([model.root_embedding.expand(batch_size, 1, -1), embedded], dim=1)
        mask = torch.cat([word_ids.new_ones(batch_size, 1, dtype=torch.bool), word_ids != 0], dim=1)
        packed = pack_padded_sequence(embedded, mask.sum(-1), batch_first=True, enforce_sorted=False)
        # (batch, n+1, encoder_dim)
        encoded, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=embedded.size(1))

        arc_scores = model.arc_scorer(model.arc_dep_mlp(encoded), model.arc_head_mlp(encoded)).squeeze(1)
        positions = torch.arange(arc_scores.size(1), device=arc_scores.device)
        self_loop = positions.unsqueeze(0) == positions.unsqueeze(1)
        arc_scores = arc_scores.masked_fill(~mask.unsqueeze(1) | self_loop.unsqueeze(0), _MASKED_SCORE)

        label_dep = model.label_dep_mlp(encoded)
        label_head = model.label_head_mlp(encoded)
        greedy_heads = arc_scores.argmax(-1)
        index = greedy_heads.unsqueeze(-1).expand(-1, -1, label_head.size(-1))
        greedy_labels = model.label_scorer.score_pairs(label_dep, label_head.gather(1, index)).argmax(-1)
        outputs: tuple[torch.Tensor, ...] = (
            arc_scores,
            greedy_labels,
            label_dep,
            label_head,
            model.label_scorer.weight,
        )
        if model.upos_projection is not None:
            outputs += (model.upos_projection(encoded[:, 1:]).argmax(-1),)
        for field, head in model.extra_heads.items():  # in EXTRA_HEADS order (see `_extra_heads`)
            logits = head(encoded[:, 1:])
            outputs += (logits.argmax(-1),)
            if field == "lemma_rules":  # the scripts `runtime.lemma_choice` may fall back on
                lemma_top = logits.topk(_lemma_top_k(model))
        if "lemma_rules" in model.extra_heads:
            outputs += (lemma_top.indices, lemma_top.values)
        return outputs

    def _embed(
        self, word_ids: torch.Tensor, char_ids: Optional[torch.Tensor], char_index: Optional[torch.Tensor]
    ) -> torch.Tensor:
        """The text field embedder's output, its embedders concatenated in its (sorted) key order; the
        character encoder runs once per distinct word (`char_ids`: (rows, characters)) and each
        place takes its word's row through `char_index` (see `runtime.parser_inputs`)."""
        pieces = []
        for key, embedder in sorted(internals.token_embedders(self.model.text_field_embedder).items()):
            if key == self.char_key:
                assert char_ids is not None and char_index is not None
                vectors = embedder(char_ids.unsqueeze(0)).squeeze(0)  # (rows, char_dim)
                pieces.append(vectors[char_index])
            else:
                pieces.append(embedder(word_ids))
        return torch.cat(pieces, dim=-1)


def _lemma_top_k(model: BiaffineDependencyParser) -> int:
    return min(TOP_K, model.vocab.get_vocab_size(EXTRA_HEADS["predict_lemmas"][1]))


# the lemma head's best scripts and their logits, after every head's own output
LEMMA_TOP_OUTPUTS = ("lemma_rules_top", "lemma_rules_top_logits")


def _top_outputs(model: BiaffineDependencyParser) -> list[str]:
    return list(LEMMA_TOP_OUTPUTS) if "lemma_rules" in model.extra_heads else []


def _extra_heads(model: BiaffineDependencyParser) -> list[tuple[str, str, str]]:
    """(field, namespace, output name) of each extra head the model has, in the graph's order."""
    heads = [(field, namespace) for field, namespace, _ in EXTRA_HEADS.values() if field in model.extra_heads]
    if [field for field, _ in heads] != list(model.extra_heads):
        raise _unsupported(f"extra heads in the order {list(model.extra_heads)}")
    return [(field, namespace, f"{field}_tags") for field, namespace in heads]


# ------------------------------------------------------------------ checks
def _reader_config(config: dict[str, Any]) -> dict[str, Any]:
    """The reader the predictor uses: the validation reader when the config has one."""
    reader = config.get("validation_dataset_reader") or config.get("dataset_reader") or {}
    if current_name(reader.get("type", "")) != CONLLU_DEPENDENCIES_READER:
        raise _unsupported(
            f"dataset reader type {reader.get('type')!r} (the runtime reproduces {CONLLU_DEPENDENCIES_READER!r})"
        )
    if reader.get("field_names", "green_nlp") != "green_nlp":
        raise _unsupported(f"reader field_names {reader.get('field_names')!r}")
    return reader


def _indexer(reader: dict[str, Any], key: str) -> TokenIndexer:
    indexers = reader.get("token_indexers") or {"tokens": {"type": "single_id"}}
    if key not in indexers:
        raise _unsupported(f"token embedder {key!r} without a token indexer of that name")
    return TokenIndexer.from_params(Params(dict(indexers[key])))


def _embedder_keys(model: BiaffineDependencyParser) -> tuple[str, Optional[str]]:
    """(word key, character key or None), checking every embedder is one the runtime can feed."""
    embedder = model.text_field_embedder
    if type(embedder) is not BasicTextFieldEmbedder:
        raise _unsupported(f"text field embedder {type(embedder).__name__}")
    word_key = char_key = None
    for key, token_embedder in internals.token_embedders(embedder).items():
        if type(token_embedder) is Embedding and word_key is None:
            word_key = key
        elif type(token_embedder) is TokenCharactersEncoder and char_key is None:
            character_encoder = internals.character_encoder(token_embedder)
            if type(character_encoder) is not CnnEncoder:
                raise _unsupported(
                    f"character encoder {type(character_encoder).__name__} of token embedder {key!r} (only 'cnn')"
                )
            char_key = key
        else:
            raise _unsupported(
                f"token embedder {key!r} of type {type(token_embedder).__name__} "
                "(one 'embedding' and at most one 'character_encoding' with a 'cnn')"
            )
    if word_key is None:
        raise _unsupported("a model without a word 'embedding' token embedder")
    return word_key, char_key


def _check_encoder(model: BiaffineDependencyParser) -> None:
    encoder = model.encoder
    if type(encoder) is not LstmSeq2SeqEncoder or not isinstance(internals.inner_module(encoder), nn.LSTM):
        raise _unsupported(f"encoder {type(encoder).__name__} (only 'lstm')")
    if encoder.stateful:
        raise _unsupported("a stateful 'lstm' encoder")


# --------------------------------------------------------------- metadata
def _vocabulary(vocab: Vocabulary, namespace: str) -> list[str]:
    return [vocab.get_token_from_index(i, namespace) for i in range(vocab.get_vocab_size(namespace))]


def _oov_index(vocab: Vocabulary, namespace: str) -> Optional[int]:
    return vocab.get_token_to_index_vocabulary(namespace).get(internals.oov_token(vocab))


def _word_input(vocab: Vocabulary, indexer: TokenIndexer, key: str) -> dict[str, Any]:
    if type(indexer) is not SingleIdTokenIndexer:
        raise _unsupported(f"token indexer {key!r} of type {type(indexer).__name__} for a word embedding")
    settings = internals.single_id_settings(indexer)
    if settings.namespace is None or settings.start_tokens or settings.end_tokens or settings.feature_name != "text":
        raise _unsupported(f"single_id indexer {key!r} with a feature, start or end tokens or no namespace")
    return {
        "input": "word_ids",
        "namespace": settings.namespace,
        "lowercase": settings.lowercase,
        "vocabulary": _vocabulary(vocab, settings.namespace),
        "oov_index": _oov_index(vocab, settings.namespace),
    }


def _char_input(vocab: Vocabulary, indexer: TokenIndexer, key: str, model: BiaffineDependencyParser) -> dict[str, Any]:
    if type(indexer) is not TokenCharactersIndexer:
        raise _unsupported(f"token indexer {key!r} of type {type(indexer).__name__} for a character encoder")
    settings = internals.character_settings(indexer)
    if (
        settings.start_tokens
        or settings.end_tokens
        or settings.byte_encoding is not None
        or settings.tokenizer_start_tokens
        or settings.tokenizer_end_tokens
    ):
        raise _unsupported(f"characters indexer {key!r} with start/end tokens or a byte encoding")
    cnn = internals.character_encoder(internals.token_embedders(model.text_field_embedder)[key])
    assert isinstance(cnn, CnnEncoder)  # `_embedder_keys` admits only a 'cnn' character encoder
    return {
        "input": "char_ids",
        "index_input": "char_index",  # one row per distinct word of a batch (`runtime.parser_inputs`)
        "namespace": settings.namespace,
        "lowercase": settings.lowercase,
        "min_padding_length": max(settings.min_padding_length, internals.widest_kernel(cnn)),
        "vocabulary": _vocabulary(vocab, settings.namespace),
        "oov_index": _oov_index(vocab, settings.namespace),
    }


def parser_metadata(model: BiaffineDependencyParser, config: dict[str, Any]) -> dict[str, Any]:
    """Everything the runtime needs besides the graph, checking the model is exportable."""
    _check_encoder(model)
    reader = _reader_config(config)
    word_key, char_key = _embedder_keys(model)
    vocab = model.vocab
    inputs: dict[str, Any] = {"words": _word_input(vocab, _indexer(reader, word_key), word_key)}
    if char_key is not None:
        inputs["characters"] = _char_input(vocab, _indexer(reader, char_key), char_key, model)
    if model.upos_embedding is not None:
        inputs["upos"] = {
            "input": "upos_ids",
            "namespace": UPOS_NAMESPACE,
            "vocabulary": _vocabulary(vocab, UPOS_NAMESPACE),
            "oov_index": _oov_index(vocab, UPOS_NAMESPACE),
        }
    scorer = model.label_scorer
    extra = _extra_heads(model)
    return {
        "model_type": MODEL_TYPE,
        "inputs": inputs,
        "outputs": {
            "arc_scores": "arc_scores",
            "greedy_labels": "greedy_labels",
            "label_dep": "label_dep",
            "label_head": "label_head",
            "label_weight": "label_weight",
            "upos": "upos_tags" if model.upos_projection is not None else None,
            **{field: output for field, _, output in extra},
            **{name: name for name in _top_outputs(model)},
        },
        "label_scorer": {"bias_x": bool(scorer.bias_x), "bias_y": bool(scorer.bias_y)},
        "labels": {
            "deprel": _vocabulary(vocab, DEPREL_NAMESPACE),
            "upos": _vocabulary(vocab, UPOS_NAMESPACE) if model.upos_projection is not None else None,
            **{field: _vocabulary(vocab, namespace) for field, namespace, _ in extra},
        },
        "needs_upos": model.upos_embedding is not None,
        "predicts_upos": model.upos_projection is not None,
        "tokenizer": dict(TOKENIZER),
        "max_sentence_length": MAX_SENTENCE_LENGTH,
        "masked_score": _MASKED_SCORE,
    }


# ------------------------------------------------------------------ export
def _example_inputs(meta: dict[str, Any]) -> dict[str, torch.Tensor]:
    """Two sentences of different lengths (3 and 5 words), longest second, so tracing sees padding."""
    word_ids = torch.tensor([[2, 2, 2, 0, 0], [2, 2, 2, 2, 2]])
    example = {"word_ids": word_ids}
    if "characters" in meta["inputs"]:
        # distinct words: row 0 the padding word, row 1 two characters, row 2 the full width
        width = meta["inputs"]["characters"]["min_padding_length"] + 2
        chars = torch.zeros(3, width, dtype=torch.long)
        chars[1, :2] = 2
        chars[2, :] = 2
        example["char_ids"] = chars
    if "upos" in meta["inputs"]:
        example["upos_ids"] = (word_ids != 0).long() * 2
    if "characters" in meta["inputs"]:
        example["char_index"] = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 2]])
    return example


def export_onnx(model: BiaffineDependencyParser, meta: dict[str, Any], path: Path) -> None:
    """Trace `ParserGraph` into an ONNX file with batch, word and character axes dynamic."""
    word_key, char_key = _embedder_keys(model)
    graph = ParserGraph(model, word_key, char_key).eval()
    example = _example_inputs(meta)
    input_names = list(example)
    output_names = ["arc_scores", "greedy_labels", "label_dep", "label_head", "label_weight"]
    if meta["predicts_upos"]:
        output_names.append("upos_tags")
    output_names += [output for _, _, output in _extra_heads(model)] + _top_outputs(model)
    axes: dict[str, dict[int, str]] = {
        "word_ids": {0: "batch", 1: "words"},
        "upos_ids": {0: "batch", 1: "words"},
        "char_ids": {0: "rows", 1: "characters"},
        "char_index": {0: "batch", 1: "words"},
        "arc_scores": {0: "batch", 1: "positions", 2: "positions"},
        "greedy_labels": {0: "batch", 1: "positions"},
        "label_dep": {0: "batch", 1: "positions"},
        "label_head": {0: "batch", 1: "positions"},
        "upos_tags": {0: "batch", 1: "words"},
        **{output: {0: "batch", 1: "words"} for _, _, output in _extra_heads(model)},
        **{output: {0: "batch", 1: "words"} for output in _top_outputs(model)},
    }
    # Positional in `ParserGraph.forward`'s order; a missing input is None and not a graph input.
    args = (example["word_ids"], example.get("char_ids"), example.get("upos_ids"), example.get("char_index"))
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the TorchScript exporter announces its deprecation
        torch.onnx.export(
            graph,
            args,
            str(path),
            dynamo=False,
            opset_version=OPSET,
            input_names=input_names,
            output_names=output_names,
            do_constant_folding=True,
            dynamic_axes={name: axes[name] for name in input_names + output_names if name in axes},
        )
    _name_constant_outputs(path, output_names)


def _name_constant_outputs(path: Path, output_names: list[str]) -> None:
    """The exporter leaves an output that is a plain weight under the weight's own name; give it
    the name asked for through an Identity node, so the runtime can fetch it by name."""
    import onnx

    proto = onnx.load(str(path))
    for output, wanted in zip(proto.graph.output, output_names):
        if output.name != wanted:
            proto.graph.node.append(onnx.helper.make_node("Identity", [output.name], [wanted], name=f"{wanted}_out"))
            output.name = wanted
    onnx.save(proto, str(path))


def export(model: BiaffineDependencyParser, config_params: Any, output_dir: Path) -> dict[str, Any]:
    """Write `model.onnx` for `model` into `output_dir`; return the parser's JSON metadata."""
    config = config_params.as_dict(quiet=True) if hasattr(config_params, "as_dict") else dict(config_params)
    meta = parser_metadata(model, config)
    export_onnx(model, meta, Path(output_dir) / "model.onnx")
    lexicon = getattr(model, "lemma_lexicon", None)  # the archive's (form, UPOS) -> lemma dictionary
    if lexicon is not None and "lemma_rules" in model.extra_heads:
        meta["lemma_lexicon"] = write_lemma_lexicon(lexicon, Path(output_dir))
    return meta


def finish_folder(output_dir: Path) -> None:
    """The written folder's graphs with cheaper equivalent operators (`graph_shortcuts`), then split
    at the character encoder (`character_split`) and, with a lemma dictionary, at the lemma head
    (`lemma_head_split`)."""
    from green_nlp.export.character_split import split_character_encoder
    from green_nlp.export.graph_shortcuts import shorten_folder
    from green_nlp.export.lemma_head_split import split_lemma_head

    shorten_folder(output_dir)
    split_character_encoder(output_dir)
    split_lemma_head(output_dir)
