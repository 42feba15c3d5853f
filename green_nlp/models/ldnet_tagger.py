"""LD-Net's sequence labeler (Liu et al. 2018): characters + words + frozen dense LMs -> BiLSTM -> CRF."""

import logging
from collections.abc import Sequence
from os import PathLike
from typing import Any, Optional, Union, cast

import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import ConditionalRandomField, Seq2SeqEncoder, TextFieldEmbedder
from allennlp.modules.conditional_random_field import allowed_transitions
from allennlp.nn import InitializerApplicator, util
from allennlp.training.metrics import SpanBasedF1Measure

from green_nlp.data.gold_label_field import UNSEEN_LABEL, check_no_unseen_while_training
from green_nlp.dataset_readers.conll_tagging import bioes_to_spans
from green_nlp.models.dense_lm import DenseLanguageModel
from green_nlp.models.setting_checks import check_dropouts
from green_nlp.names import register_with_old_names
from green_nlp.nn.character_cap import capped_characters
from green_nlp.nn.viterbi import batched_viterbi_tags
from green_nlp.settings import export_ldnet_defaults

export_ldnet_defaults()  # the LD-Net configs' settings, also when imported without the plugin

logger = logging.getLogger(__name__)

LABELS = "labels"
# What a saved model no longer needs: its weights file holds what these would load or initialise.
TRAINING_ONLY_KEYS = ("pretrained_file", "initializer")


def drop_training_only_keys(tree: Any, keys: Sequence[str] = TRAINING_ONLY_KEYS) -> int:
    """Remove `keys` at any depth of nested dicts and lists, in place; returns how many were removed.

    AllenNLP's own `remove_keys_from_params` stops at lists, which is where the tagger's
    `language_models` (and their `pretrained_file`) are.
    """
    removed = 0
    if isinstance(tree, dict):
        for key in keys:
            if key in tree:
                del tree[key]
                removed += 1
        children = list(tree.values())
    else:
        children = tree if isinstance(tree, list) else []
    for child in children:
        removed += drop_training_only_keys(child, keys)
    return removed


class SpanF1WithUnseenGold(SpanBasedF1Measure):
    """`SpanBasedF1Measure` that also scores gold tags the vocabulary lacks (`UNSEEN_LABEL`).

    AllenNLP's metric maps every gold index back to its tag and fails on one it does not know. In a
    sentence that holds such a tag, the gold spans come from the gold tags as text instead (the
    reader keeps them in the metadata), so a span of an unseen type, or one whose inner tag the
    model never saw (an `I-PER` of a three-word name when training had only shorter ones), counts
    as a missed gold span, and whatever was predicted there as a false positive.
    """

    def __call__(
        self,
        predictions: torch.Tensor,
        gold_labels: torch.Tensor,
        mask: Optional[torch.BoolTensor] = None,
        gold_tags: Optional[list[list[str]]] = None,  # type: ignore[override]  # one more keyword
    ) -> None:
        unseen = gold_labels == UNSEEN_LABEL
        if mask is not None:
            unseen = unseen & mask.bool()
        rows = unseen.any(-1).tolist()
        if not any(rows):
            super().__call__(predictions, gold_labels, mask)
            return
        if gold_tags is None or any(row and gold_tags[i] is None for i, row in enumerate(rows)):
            raise ConfigurationError("gold tags outside the vocabulary need the gold tags as text (metadata 'tags')")
        seen_rows = [i for i, row in enumerate(rows) if not row]
        if seen_rows:
            index = torch.tensor(seen_rows, device=gold_labels.device)
            super().__call__(predictions[index], gold_labels[index], None if mask is None else mask[index])  # type: ignore[arg-type]  # allennlp annotates masks as BoolTensor
        lengths = mask.sum(-1).tolist() if mask is not None else [gold_labels.size(1)] * len(rows)
        best = predictions.argmax(-1).tolist()
        for i in (i for i, row in enumerate(rows) if row):
            predicted = [self._label_vocabulary[tag] for tag in best[i][: lengths[i]]]
            gold = list(gold_tags[i][: lengths[i]])
            gold_spans = self._tags_to_spans_function(gold, self._ignore_classes)  # type: ignore[misc]
            for span in self._tags_to_spans_function(predicted, self._ignore_classes):  # type: ignore[misc]
                if span in gold_spans:
                    self._true_positives[span[0]] += 1
                    gold_spans.remove(span)
                else:
                    self._false_positives[span[0]] += 1
            for span in gold_spans:
                self._false_negatives[span[0]] += 1


@register_with_old_names(Model, "green_ldnet_tagger")  # first name: ld_net_tagger
class LdNetTagger(Model):
    """
    Words and characters (`text_field_embedder`) concatenated with the LMs' contextual
    representation, a ReLU projection of all LM layer outputs (each times its gate `z`), then a
    BiLSTM and a BIOES-constrained CRF. With no `language_models` this is the NoLM baseline.

    The LMs are frozen and always run in eval mode; `lm_gates` (one per LM layer, starting at 1)
    only train when `gates_trainable` (the layer-selection stage, see
    `green_nlp.training.layer_selection`).

    # Parameters

    vocab : `Vocabulary`
    text_field_embedder : `TextFieldEmbedder`
        Embeds every indexer of the `tokens` field except `lm_indexer_key`.
    encoder : `Seq2SeqEncoder`
        Its input size must be the embedder's output plus `lm_projection_dim` (when LMs are used).
    language_models : `List[DenseLanguageModel]`, optional
        Usually a forward and a backward `green_dense_lm` with `with_softmax: false`,
        `namespace: "ldnet_lm_tokens"` and `pretrained_file` naming the trained LM archives (read
        when training only: a trained tagger's archive holds the LMs' vocabulary and weights).
    lm_projection_dim : `int`, optional (default = `100`)
    lm_indexer_key : `str`, optional (default = `"ldnet_lm"`)
        The `tokens` indexer that gives the LMs' word ids (a `green_lm_tokens` indexer).
    gates_trainable : `bool`, optional (default = `False`)
    target_lm_layers : `int`, optional
        Adds the metric `f1-at-target`: span F1 minus the number of non-zero gates above this
        target. LD-Net keeps the best pruning checkpoint among those that reached the target; the
        penalty keeps that order (an on-target epoch, in [0, 1], beats any off-target one) and,
        when no epoch gets there, prefers the epoch with the fewest layers, then the best F1.
    dropout : `float`, optional (default = `0.5`)
        On the concatenated word, character and LM features and on the BiLSTM's output.
    lm_dropout : `float`, optional (default = `0.0`)
        On the LM layer outputs before their projection, while training only. LD-Net applies
        dropout to the LM outputs inside the tagger; the LMs themselves stay in eval mode.
    initializer : `InitializerApplicator`, optional
        The layer-selection stage starts from the trained tagger's archive with AllenNLP's
        `pretrained` initializer.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Seq2SeqEncoder,
        language_models: Optional[list[DenseLanguageModel]] = None,
        lm_projection_dim: int = 100,
        lm_indexer_key: str = "ldnet_lm",
        gates_trainable: bool = False,
        target_lm_layers: Optional[int] = None,
        dropout: float = 0.5,
        lm_dropout: float = 0.0,
        initializer: Optional[InitializerApplicator] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        check_dropouts("green_ldnet_tagger", dropout=dropout, lm_dropout=lm_dropout)
        self.text_field_embedder = text_field_embedder
        self.language_models = torch.nn.ModuleList(language_models or [])
        self.lm_indexer_key = lm_indexer_key
        self.target_lm_layers = target_lm_layers
        for lm in self._lms():
            if lm.with_softmax:
                raise ConfigurationError("build the tagger's LMs with `with_softmax: false` (the softmax is not used)")
            lm.requires_grad_(False)
        if len({lm.namespace for lm in self._lms()}) > 1:
            raise ConfigurationError("all language models must share one vocabulary namespace")
        lm_dim = sum(lm.get_output_dim() for lm in self._lms())
        embedded_dim = text_field_embedder.get_output_dim()
        if self.language_models:
            self.lm_gates = torch.nn.Parameter(
                torch.ones(sum(lm.rnn.num_layers for lm in self._lms())), requires_grad=gates_trainable
            )
            self.lm_projection = torch.nn.Linear(lm_dim, lm_projection_dim)
            embedded_dim += lm_projection_dim
        if encoder.get_input_dim() != embedded_dim:
            raise ConfigurationError(
                f"encoder input_dim is {encoder.get_input_dim()} but words + characters + LM projection give "
                f"{embedded_dim} ({text_field_embedder.get_output_dim()} + "
                f"{lm_projection_dim if self.language_models else 0})"
            )
        self.encoder = encoder
        self.dropout = torch.nn.Dropout(dropout)
        self.lm_dropout = torch.nn.Dropout(lm_dropout)
        labels = vocab.get_index_to_token_vocabulary(LABELS)
        self.tag_projection = torch.nn.Linear(encoder.get_output_dim(), len(labels))
        # BIOES is AllenNLP's BIOUL with S for U and E for L
        as_bioul = {i: {"S": "U", "E": "L"}.get(tag[0], tag[0]) + tag[1:] for i, tag in labels.items()}
        self.crf = ConditionalRandomField(len(labels), constraints=allowed_transitions("BIOUL", as_bioul))
        self._f1 = SpanF1WithUnseenGold(vocab, LABELS, label_encoding=None, tags_to_spans_function=bioes_to_spans)
        if initializer is not None:  # e.g. `pretrained` from the trained tagger, for layer selection
            initializer(self)

    @classmethod
    def _load(
        cls,
        config: Params,
        serialization_dir: Union[str, PathLike],
        weights_file: Optional[Union[str, PathLike]] = None,
        cuda_device: int = -1,
    ) -> Model:
        """Rebuild a trained tagger without reading its LM archives (its weights file holds the LMs).

        The archived config still names them (`language_models[i].pretrained_file`, often a path
        relative to the folder it was trained in); reading them would tie the archive to that
        folder and machine. Archives written before this override load the same way.
        """
        config = config.duplicate()
        removed = drop_training_only_keys(config.params.get("model"))
        if removed:
            logger.debug(
                "loading %s without %d training-only keys (pretrained files, initializers)", serialization_dir, removed
            )
        return super()._load(config, serialization_dir, weights_file, cuda_device)

    def train(self, mode: bool = True) -> "LdNetTagger":
        super().train(mode)
        for lm in self.language_models:  # frozen feature extractors: no dropout, ever
            lm.eval()
        return self

    def _lms(self) -> list[DenseLanguageModel]:
        """The language models, typed (a ModuleList yields plain Modules)."""
        return [cast(DenseLanguageModel, lm) for lm in self.language_models]

    def gates_per_lm(self) -> list[torch.Tensor]:
        """`lm_gates` split into one `(num_layers,)` tensor per language model."""
        sizes = [lm.rnn.num_layers for lm in self._lms()]
        return list(torch.split(self.lm_gates, sizes)) if sizes else []

    def lm_features(self, tokens: TextFieldTensors, mask: torch.Tensor) -> torch.Tensor:
        """The LMs' contribution to each word, `(batch, seq_len, lm_projection_dim)`: every LM layer's
        output times its gate, projected (ReLU). Public because the ONNX exporter runs this same
        arithmetic in its graph."""
        lm_ids = util.get_token_ids_from_text_field_tensors({self.lm_indexer_key: tokens[self.lm_indexer_key]})
        with torch.set_grad_enabled(torch.is_grad_enabled() and self.lm_gates.requires_grad):
            layers = [
                output
                for lm, gates in zip(self._lms(), self.gates_per_lm())
                for output in lm.layer_outputs(lm_ids, mask, gates)
            ]
        # (batch, seq_len, lm_projection_dim)
        return torch.relu(self.lm_projection(self.lm_dropout(torch.cat(layers, dim=-1))))

    _lm_features = lm_features  # its first name, for code written before it was public

    def _score(self, tokens: TextFieldTensors, mask: torch.Tensor) -> torch.Tensor:
        """Per-word tag scores, `(batch, seq_len, num_tags)`."""
        if self.language_models and self.lm_indexer_key not in tokens:
            raise ConfigurationError(f"the reader must give a {self.lm_indexer_key!r} indexer for the LMs")
        word_inputs = capped_characters({key: value for key, value in tokens.items() if key != self.lm_indexer_key})
        features = [self.text_field_embedder(word_inputs)]  # (batch, seq_len, embedding_dim)
        if self.language_models:
            features.append(self.lm_features(tokens, mask))
        encoded = self.encoder(self.dropout(torch.cat(features, dim=-1)), mask)
        return self.tag_projection(self.dropout(encoded))

    def _loss(self, logits: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean negative log-likelihood per sentence; a sentence holding a gold tag the vocabulary lacks
        (`UNSEEN_LABEL`, evaluation only) has no path to score and is left out."""
        unseen = ((tags == UNSEEN_LABEL) & mask).any(-1)
        if bool(unseen.any()):
            check_no_unseen_while_training(self, tags, "tag")
            keep = ~unseen
            if not bool(keep.any()):
                return logits.sum() * 0.0  # nothing to score: a zero that keeps the graph
            logits, tags, mask = logits[keep], tags[keep], mask[keep]
        return -self.crf(logits, tags, mask) / logits.size(0)

    def _decode(self, logits: torch.Tensor, mask: torch.Tensor) -> list[list[int]]:
        return batched_viterbi_tags(self.crf, logits, mask)  # same paths as crf.viterbi_tags, one loop per batch

    def forward(
        self,
        tokens: TextFieldTensors,
        tags: Optional[torch.LongTensor] = None,
        metadata: Optional[list[dict[str, Any]]] = None,
    ) -> dict[str, Any]:
        mask = util.get_text_field_mask(tokens)  # (batch, seq_len)
        logits = self._score(tokens, mask)
        predicted = self._decode(logits, mask)
        output: dict[str, Any] = {"logits": logits, "mask": mask, "predicted_tags": predicted}
        if metadata is not None:
            output["words"] = [m["words"] for m in metadata]
        if tags is not None:
            output["loss"] = self._loss(logits, tags, mask)
            one_hot = torch.zeros_like(logits)
            for i, path in enumerate(predicted):
                one_hot[i, torch.arange(len(path)), torch.tensor(path, dtype=torch.long)] = 1
            gold_tags: Optional[list[Any]] = [m.get("tags") for m in metadata] if metadata else None
            self._f1(one_hot, tags, mask, gold_tags=gold_tags)
        return output

    def make_output_human_readable(self, output_dict: dict[str, Any]) -> dict[str, Any]:
        output_dict["tags"] = [
            [self.vocab.get_token_from_index(t, LABELS) for t in path] for path in output_dict["predicted_tags"]
        ]
        return output_dict

    def active_lm_layers(self) -> int:
        return int((self.lm_gates > 0).sum()) if self.language_models else 0

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        f1 = self._f1.get_metric(reset)
        metrics = {name: value for name, value in f1.items() if "overall" in name}
        if self.language_models:
            metrics["active_lm_layers"] = float(self.active_lm_layers())
        if self.target_lm_layers is not None:
            excess_layers = max(0, self.active_lm_layers() - self.target_lm_layers)
            metrics["f1-at-target"] = metrics["f1-measure-overall"] - excess_layers
        return metrics

    default_predictor = "green_sentence_tagger"
