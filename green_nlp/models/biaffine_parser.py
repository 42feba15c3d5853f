"""Biaffine dependency parser (Dozat & Manning 2017), the teacher and the students of green_nlp."""

from typing import Any, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.data.vocabulary import DEFAULT_OOV_TOKEN, DEFAULT_PADDING_TOKEN
from allennlp.models import Model
from allennlp.modules import InputVariationalDropout, Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator
from allennlp.nn.util import get_text_field_mask
from allennlp.training.metrics import AttachmentScores, CategoricalAccuracy
from torch import nn

from green_nlp.dataset_readers.conllu_dependencies import (
    DEPREL_NAMESPACE,
    FEATS_NAMESPACE,
    LEMMA_RULE_NAMESPACE,
    UPOS_NAMESPACE,
    XPOS_NAMESPACE,
)
from green_nlp.models import lemma_lexicon_vocabulary  # noqa: F401 (registers vocabulary type green_lemma_lexicon)
from green_nlp.models.setting_checks import check_dropouts
from green_nlp.modules.biaffine import Biaffine
from green_nlp.modules.embedder_checks import check_character_encoders
from green_nlp.nn.character_cap import capped_characters
from green_nlp.nn.tree_decoding import decode_heads, root_consistent_labels
from green_nlp.runtime.lemma_choice import TOP_K, AttestedWords
from green_nlp.runtime.lemma_lexicon import NAMESPACE as LEMMA_LEXICON_NAMESPACE
from green_nlp.runtime.lemma_lexicon import LemmaLexicon
from green_nlp.runtime.lemma_rules import predicted_lemmas
from green_nlp.runtime.parser_decoding import ROOT_RELATION
from green_nlp.training.distiller import Distillable
from green_nlp.training.parser_distiller import ParserDistillationInput, ParserDistiller

# The optional UD heads: model option -> (forward argument / field, vocabulary namespace, output key)
EXTRA_HEADS = {
    "predict_lemmas": ("lemma_rules", LEMMA_RULE_NAMESPACE, "lemmas"),
    "predict_feats": ("feats", FEATS_NAMESPACE, "feats"),
    "predict_xpos": ("xpos", XPOS_NAMESPACE, "xpos"),
}

# Large but finite: keeps log_softmax and float16 free of NaNs where -inf would not.
_MASKED_SCORE = -1e4


class _MLP(nn.Sequential):
    """Linear -> LeakyReLU -> dropout, the per-role projection of the biaffine parser."""

    def __init__(self, input_dim: int, output_dim: int, dropout: float) -> None:
        super().__init__(nn.Linear(input_dim, output_dim), nn.LeakyReLU(0.1), InputVariationalDropout(dropout))


@Model.register("green_biaffine_parser")
class BiaffineDependencyParser(Model, Distillable):
    """
    Embeddings (words, optional characters, optional UPOS) -> BiLSTM -> arc and label MLPs ->
    biaffine scorers. `forward` is `score()` -> `loss()` -> `decode()` so that distillation can
    reuse the raw scores.

    # Parameters

    vocab : `Vocabulary`
    text_field_embedder : `TextFieldEmbedder`
        Word (and optionally character) embeddings.
    encoder : `Seq2SeqEncoder`
        Bidirectional encoder; its input dim must be the embedder's plus `upos_embedding_dim`.
    upos_embedding_dim : `int`, optional (default = `100`)
        Size of the UPOS input embedding; 0 parses from words (and characters) alone, which is
        what raw text needs.
    predict_upos : `bool`, optional (default = `False`)
        Add a UPOS tagging head trained jointly, so raw-text output carries UPOS tags.
    predict_lemmas, predict_feats, predict_xpos : `bool`, optional (default = `False`)
        More tagging heads on the encoder, trained jointly, so the output has CoNLL-U's LEMMA, FEATS
        and XPOS columns: the lemma as an edit script from the form (`runtime.lemma_rules`, as
        UDPipe), the whole UFeats string as one label (as UDPipe 2: only feature combinations seen
        in training come out, and one softmax is cheaper than one per feature), XPOS. Each needs its
        namespace in the vocabulary: the reader's `read_columns` (`lemmas`, `feats`, `xpos`).
    lemma_loss_weight, feats_loss_weight, xpos_loss_weight : `float`, optional (default = `1.0`)
        Weights of those heads' cross-entropies in the loss (the arc, label and UPOS terms have 1).
    arc_mlp_dim, label_mlp_dim : `int`
        Sizes of the arc and label MLPs (paper: 500 and 100).
    embedding_dropout, mlp_dropout : `float`
        Dropout on embeddings and MLP outputs (paper: 0.33). Distillation switches it off.

    Metrics: validation (and `allennlp evaluate`) scores the decoded trees (`decode()`). Training
    batches score `greedy_attachments()` instead, each word's best head with no tree constraint, under
    dropout: a cheap progress figure, close to but not the same as what the trees would score.
    """

    distiller_kind = ParserDistiller

    default_predictor = "green_dependency_parser"

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Seq2SeqEncoder,
        upos_embedding_dim: int = 100,
        predict_upos: bool = False,
        predict_lemmas: bool = False,
        predict_feats: bool = False,
        predict_xpos: bool = False,
        lemma_loss_weight: float = 1.0,
        feats_loss_weight: float = 1.0,
        xpos_loss_weight: float = 1.0,
        arc_mlp_dim: int = 500,
        label_mlp_dim: int = 100,
        embedding_dropout: float = 0.33,
        mlp_dropout: float = 0.33,
        initializer: InitializerApplicator = InitializerApplicator(),  # noqa: B008 (AllenNLP idiom: stateless default)
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        check_dropouts("green_biaffine_parser", embedding_dropout=embedding_dropout, mlp_dropout=mlp_dropout)
        check_character_encoders(text_field_embedder)
        input_dim = text_field_embedder.get_output_dim() + upos_embedding_dim
        if encoder.get_input_dim() != input_dim:
            raise ConfigurationError(
                f"encoder input_size is {encoder.get_input_dim()} but the embeddings give {input_dim} "
                f"(text_field_embedder {text_field_embedder.get_output_dim()} + upos_embedding_dim "
                f"{upos_embedding_dim}); make them equal"
            )
        if not encoder.is_bidirectional():
            raise ConfigurationError("the biaffine parser needs a bidirectional encoder")
        for name, value in (("arc_mlp_dim", arc_mlp_dim), ("label_mlp_dim", label_mlp_dim)):
            if value < 1:
                raise ConfigurationError(f"{name} must be positive, got {value}")
        num_upos = vocab.get_vocab_size(UPOS_NAMESPACE)
        special = {vocab._padding_token, vocab._oov_token}
        upos_labels = set(vocab.get_token_to_index_vocabulary(UPOS_NAMESPACE)) - special
        if (upos_embedding_dim > 0 or predict_upos) and not upos_labels:
            raise ConfigurationError(
                "the model uses UPOS but the vocabulary has no 'upos' labels: set the reader's "
                "use_gold_upos to true, or upos_embedding_dim to 0 and predict_upos to false"
            )
        num_labels = vocab.get_vocab_size(DEPREL_NAMESPACE)
        wanted = {"predict_lemmas": predict_lemmas, "predict_feats": predict_feats, "predict_xpos": predict_xpos}
        weights = {
            "predict_lemmas": lemma_loss_weight,
            "predict_feats": feats_loss_weight,
            "predict_xpos": xpos_loss_weight,
        }
        for option, on in wanted.items():
            field, namespace, _ = EXTRA_HEADS[option]
            if on and not vocab.get_token_to_index_vocabulary(namespace):
                raise ConfigurationError(
                    f"{option} is true but the vocabulary has no {namespace!r}: add "
                    f"{field.replace('lemma_rules', 'lemmas')!r} to the reader's read_columns"
                )
            if weights[option] < 0:
                raise ConfigurationError(f"{option.replace('predict_', '').rstrip('s')}_loss_weight must be >= 0")

        self.text_field_embedder = text_field_embedder
        self.upos_embedding = nn.Embedding(num_upos, upos_embedding_dim) if upos_embedding_dim > 0 else None
        self.encoder = encoder
        self.root_embedding = nn.Parameter(torch.randn(input_dim) * 0.01)
        self.embedding_dropout = InputVariationalDropout(embedding_dropout)
        encoder_dim = encoder.get_output_dim()
        self.arc_dep_mlp = _MLP(encoder_dim, arc_mlp_dim, mlp_dropout)
        self.arc_head_mlp = _MLP(encoder_dim, arc_mlp_dim, mlp_dropout)
        self.label_dep_mlp = _MLP(encoder_dim, label_mlp_dim, mlp_dropout)
        self.label_head_mlp = _MLP(encoder_dim, label_mlp_dim, mlp_dropout)
        self.arc_scorer = Biaffine(arc_mlp_dim, arc_mlp_dim, 1, bias_x=True, bias_y=False)
        self.label_scorer = Biaffine(label_mlp_dim, label_mlp_dim, num_labels)
        self.upos_projection = nn.Linear(encoder_dim, num_upos) if predict_upos else None
        # field -> its head; absent (not None) when off, so old archives' state dicts load unchanged
        self.extra_heads = nn.ModuleDict(
            {
                EXTRA_HEADS[option][0]: nn.Linear(encoder_dim, vocab.get_vocab_size(EXTRA_HEADS[option][1]))
                for option, on in wanted.items()
                if on
            }
        )
        self._extra_loss_weights = {EXTRA_HEADS[o][0]: w for o, w in weights.items() if wanted[o]}
        self._extra_accuracy = {field: CategoricalAccuracy() for field in self.extra_heads}
        # (form, UPOS) -> lemma from the training file, consulted before the edit scripts where the
        # vocabulary carries it (`runtime.lemma_lexicon`; added to an archive by `export.lemma_lexicon`)
        self.lemma_lexicon: Optional[LemmaLexicon] = None
        if "lemma_rules" in self.extra_heads and LEMMA_LEXICON_NAMESPACE in vocab.get_namespaces():
            lines = [
                line
                for line in vocab.get_token_to_index_vocabulary(LEMMA_LEXICON_NAMESPACE)
                if line not in (DEFAULT_PADDING_TOKEN, DEFAULT_OOV_TOKEN)  # were it read as a padded namespace
            ]
            self.lemma_lexicon = LemmaLexicon.from_lines(lines, f"vocabulary namespace {LEMMA_LEXICON_NAMESPACE}")

        # attested words (`runtime.lemma_choice`): set by the predictor's `attested_words`, as the
        # ONNX runtime reads them from its folder; None keeps each word's best script
        self.attested_words: Optional[AttestedWords] = None

        self._attachment_scores = AttachmentScores()
        self._batches_without_trees = 0  # since the metrics were last reset (`get_metrics`)
        self._upos_accuracy = CategoricalAccuracy() if predict_upos else None
        initializer(self)

    # ----------------------------------------------------------------- scoring
    def _own_indexers(self, words: TextFieldTensors) -> TextFieldTensors:
        """Drop token indexers this model has no embedder for: a student's reader also produces its
        teacher's (e.g. word pieces for a transformer teacher), which the student must not embed."""
        own = getattr(self.text_field_embedder, "_token_embedders", None)
        if own is not None and not set(words) <= set(own):
            words = {key: value for key, value in words.items() if key in own}
        return capped_characters(words)

    def score(self, words: TextFieldTensors, upos: Optional[torch.Tensor] = None) -> dict[str, torch.Tensor]:
        """
        Raw scores, ROOT at position 0. Returns `arc_scores` (batch, n+1, n+1) as
        `[b, dep, head]` with padding and self-loops masked, `label_dep` / `label_head`
        (batch, n+1, label_mlp_dim) for `label_scores()`, `mask` (batch, n+1) and, when
        predicting UPOS, `upos_logits` (batch, n, num_upos), and `<field>_logits` (batch, n, classes)
        for each extra head (`lemma_rules`, `feats`, `xpos`).
        """
        words = self._own_indexers(words)
        word_mask = get_text_field_mask(words)
        # (batch, n, embed_dim)
        embedded = self.text_field_embedder(words)
        if self.upos_embedding is not None:
            if upos is None:
                raise ConfigurationError(
                    "this parser was trained with UPOS input; give it a 'upos' field "
                    "(CoNLL-U with a UPOS column), or use a words-only model for raw text"
                )
            embedded = torch.cat([embedded, self.upos_embedding(upos)], dim=-1)
        batch_size = embedded.size(0)
        root = self.root_embedding.expand(batch_size, 1, -1)
        # (batch, n+1, input_dim)
        embedded = self.embedding_dropout(torch.cat([root, embedded], dim=1))
        mask = torch.cat([word_mask.new_ones(batch_size, 1), word_mask], dim=1)
        # (batch, n+1, encoder_dim)
        encoded = self.encoder(embedded, mask)

        # (batch, n+1, n+1)
        arc_scores = self.arc_scorer(self.arc_dep_mlp(encoded), self.arc_head_mlp(encoded)).squeeze(1)
        length = arc_scores.size(1)
        invalid = ~mask.unsqueeze(1) | torch.eye(length, dtype=torch.bool, device=mask.device).unsqueeze(0)
        arc_scores = arc_scores.masked_fill(invalid, _MASKED_SCORE)
        scores = {
            "arc_scores": arc_scores,
            "label_dep": self.label_dep_mlp(encoded),
            "label_head": self.label_head_mlp(encoded),
            "mask": mask,
        }
        if self.upos_projection is not None:
            scores["upos_logits"] = self.upos_projection(encoded[:, 1:])
        for field, head in self.extra_heads.items():
            scores[f"{field}_logits"] = head(encoded[:, 1:])
        return scores

    def label_scores(self, scores: dict[str, torch.Tensor], heads: torch.Tensor) -> torch.Tensor:
        """Label scores of each word for one head per word: heads (batch, n+1) -> (batch, n+1, labels)."""
        index = heads.unsqueeze(-1).expand(-1, -1, scores["label_head"].size(-1))
        # (batch, n+1, label_mlp_dim)
        head_repr = scores["label_head"].gather(1, index)
        return self.label_scorer.score_pairs(scores["label_dep"], head_repr)

    # -------------------------------------------------------------------- loss
    def loss(
        self,
        scores: dict[str, torch.Tensor],
        head_indices: torch.Tensor,
        head_tags: torch.Tensor,
        upos: Optional[torch.Tensor] = None,
        gold_label_scores: Optional[torch.Tensor] = None,
        extra_targets: Optional[dict[str, torch.Tensor]] = None,
    ) -> torch.Tensor:
        """Cross-entropy of gold heads and of gold labels at gold heads, averaged over words, plus
        the weighted cross-entropies of the extra heads whose gold tags `extra_targets` holds.
        `gold_label_scores`: `label_scores(scores, gold heads)` when the caller has them already
        (distillation needs them for its KL term), so the label biaffine runs once per step."""
        word_mask = scores["mask"][:, 1:]
        # (batch, n)
        arc_log_probs = scores["arc_scores"].log_softmax(-1)[:, 1:]
        arc_nll = -arc_log_probs.gather(-1, head_indices.unsqueeze(-1)).squeeze(-1)
        if gold_label_scores is None:
            gold_label_scores = self.label_scores(scores, self._with_root(head_indices))
        label_log_probs = gold_label_scores.log_softmax(-1)[:, 1:]
        seen = head_tags >= 0  # UNSEEN_LABEL (-1): a relation outside the vocabulary, no label loss
        label_nll = -label_log_probs.gather(-1, head_tags.clamp(min=0).unsqueeze(-1)).squeeze(-1) * seen
        num_words = word_mask.sum().clamp(min=1)
        loss = ((arc_nll + label_nll) * word_mask).sum() / num_words
        if "upos_logits" in scores and upos is not None:
            upos_nll = -scores["upos_logits"].log_softmax(-1).gather(-1, upos.unsqueeze(-1)).squeeze(-1)
            loss = loss + (upos_nll * word_mask).sum() / num_words
        for field, gold in (extra_targets or {}).items():
            seen = gold >= 0  # UNSEEN_LABEL: a tag outside the vocabulary, no loss
            log_probs = scores[f"{field}_logits"].log_softmax(-1)
            nll = -log_probs.gather(-1, gold.clamp(min=0).unsqueeze(-1)).squeeze(-1) * seen
            loss = loss + self._extra_loss_weights[field] * (nll * word_mask).sum() / num_words
        return loss

    # ------------------------------------------------------------------ decode
    def decode(self, scores: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """Well-formed trees (greedy, MST where greedy is not a tree), then labels at those heads."""
        mask = scores["mask"]
        lengths = mask.sum(-1) - 1
        heads = decode_heads(scores["arc_scores"].detach(), lengths)
        labels = root_consistent_labels(self.label_scores(scores, heads), heads, self._root_label_index())
        decoded = {"heads": heads[:, 1:], "head_tags": labels[:, 1:], "mask": mask[:, 1:].contiguous()}
        if "upos_logits" in scores:
            decoded["upos_tags"] = scores["upos_logits"].argmax(-1)
        for field in self.extra_heads:
            decoded[f"{field}_tags"] = scores[f"{field}_logits"].argmax(-1)
        if "lemma_rules" in self.extra_heads:  # the scripts `lemma_choice` may fall back on
            logits = scores["lemma_rules_logits"]
            top = logits.topk(min(TOP_K, logits.size(-1)))
            decoded["lemma_rules_top"], decoded["lemma_rules_top_logits"] = top.indices, top.values
        return decoded

    def _root_label_index(self) -> Optional[int]:
        """Index of UD's `root` relation, or None where the treebank has no such label."""
        labels = self.vocab.get_token_to_index_vocabulary(DEPREL_NAMESPACE)
        return labels.get(ROOT_RELATION) if len(labels) > 1 else None

    def greedy_attachments(
        self, scores: dict[str, torch.Tensor], gold_label_scores: torch.Tensor
    ) -> dict[str, torch.Tensor]:
        """Training figures: each word's highest-scoring head (no tree constraint, no MST) and, as
        its label, the best label at the gold head (`gold_label_scores`, which the loss computes
        anyway). UAS / LAS come out as with the labels of the greedy heads: a label counts only
        where its head is right, and there the greedy head is the gold head. So no label is scored
        twice and the cost is two argmaxes.
        """
        with torch.no_grad():
            # (batch, n+1): padding and self-loops are masked in arc_scores, so never a word's head
            heads = scores["arc_scores"].argmax(-1)
            labels = gold_label_scores.argmax(-1)
            mask = scores["mask"][:, 1:].contiguous()
        return {"heads": heads[:, 1:], "head_tags": labels[:, 1:], "mask": mask}

    def forward(
        self,
        words: TextFieldTensors,
        upos: Optional[torch.Tensor] = None,
        head_indices: Optional[torch.Tensor] = None,
        head_tags: Optional[torch.Tensor] = None,
        metadata: Optional[list[dict[str, Any]]] = None,
        lemma_rules: Optional[torch.Tensor] = None,
        feats: Optional[torch.Tensor] = None,
        xpos: Optional[torch.Tensor] = None,
    ) -> dict[str, torch.Tensor]:
        scores = self.score(words, upos if self.upos_embedding is not None else None)
        given = {"lemma_rules": lemma_rules, "feats": feats, "xpos": xpos}
        extra_targets: dict[str, torch.Tensor] = {
            field: tensor for field, tensor in given.items() if field in self.extra_heads and tensor is not None
        }
        output: dict[str, Any] = {}
        gold_label_scores: Optional[torch.Tensor] = None
        self._batches_without_trees += head_indices is None or head_tags is None
        if head_indices is not None and head_tags is not None:
            # shared by the loss (and a distiller's KL term) and the training figures
            gold_heads = self._with_root(head_indices)
            gold_label_scores = self.label_scores(scores, gold_heads)
            output["loss"] = self.loss(
                scores, head_indices, head_tags, upos, gold_label_scores=gold_label_scores, extra_targets=extra_targets
            )
            distiller = self.distiller  # attached by the green_parser_distillation callback
            if distiller is not None and self.training:
                output["loss"] = distiller.loss(
                    ParserDistillationInput(
                        self,
                        scores,
                        gold_label_scores,
                        output["loss"],
                        words,
                        head_indices,
                        head_tags,
                        upos,
                        metadata,
                        extra_targets=extra_targets,
                    )
                )
        decoded: Optional[dict[str, torch.Tensor]] = None
        if not self.training:
            decoded = self.decode(scores)
            output.update(decoded)
        elif gold_label_scores is not None:
            decoded = self.greedy_attachments(scores, gold_label_scores)  # for the training figures, not output
        if decoded is not None:
            self._update_metrics(scores, decoded, upos, head_indices, head_tags)
            for field, gold in extra_targets.items():
                # words with no gold tag (UNSEEN_LABEL, or a silver sentence's NO_GOLD) are left out
                self._extra_accuracy[field](scores[f"{field}_logits"], gold, decoded["mask"] & (gold >= 0))  # type: ignore[arg-type]
        if metadata is not None:
            output["words"] = [m["words"] for m in metadata]
            if self.lemma_lexicon is not None and self.upos_projection is None:
                output["given_upos"] = [m.get("upos") for m in metadata]  # the lexicon's key
        return output

    def _update_metrics(
        self,
        scores: dict[str, torch.Tensor],
        decoded: dict[str, torch.Tensor],
        upos: Optional[torch.Tensor],
        head_indices: Optional[torch.Tensor],
        head_tags: Optional[torch.Tensor],
    ) -> None:
        """UAS / LAS (and UPOS accuracy) of `decoded` against the gold fields that are given."""
        word_mask = decoded["mask"]
        if head_indices is not None and head_tags is not None:
            self._attachment_scores(decoded["heads"], decoded["head_tags"], head_indices, head_tags, word_mask)  # type: ignore[arg-type]  # allennlp annotates masks as BoolTensor
        if self._upos_accuracy is not None and upos is not None:
            self._upos_accuracy(scores["upos_logits"], upos, word_mask)  # type: ignore[arg-type]  # allennlp annotates masks as BoolTensor

    @staticmethod
    def _with_root(heads: torch.Tensor) -> torch.Tensor:
        """(batch, n) word heads -> (batch, n+1) with ROOT's own (unused) head 0 in front."""
        return torch.cat([heads.new_zeros(heads.size(0), 1), heads], dim=1)

    def make_output_human_readable(self, output_dict: dict[str, Any]) -> dict[str, Any]:
        """Per sentence: `predicted_heads`, `predicted_deprels` and maybe `predicted_upos`, unpadded;
        with the extra heads also `predicted_lemmas` (the scripts applied to the words),
        `predicted_feats` and `predicted_xpos`."""
        extra = {field: output_dict.pop(f"{field}_tags").cpu().tolist() for field in self.extra_heads}
        top = output_dict.pop("lemma_rules_top", None)
        top_logits = output_dict.pop("lemma_rules_top_logits", None)
        heads_batch = output_dict.pop("heads").cpu().tolist()
        tags_batch = output_dict.pop("head_tags").cpu().tolist()
        upos_batch = output_dict.pop("upos_tags").cpu().tolist() if "upos_tags" in output_dict else None
        lengths = output_dict.pop("mask").sum(-1).cpu().tolist()
        output_dict["predicted_heads"] = [h[:n] for h, n in zip(heads_batch, lengths)]
        output_dict["predicted_deprels"] = [
            [self.vocab.get_token_from_index(t, DEPREL_NAMESPACE) for t in tags[:n]]
            for tags, n in zip(tags_batch, lengths)
        ]
        if upos_batch is not None:
            output_dict["predicted_upos"] = [
                [self.vocab.get_token_from_index(t, UPOS_NAMESPACE) for t in tags[:n]]
                for tags, n in zip(upos_batch, lengths)
            ]
        for field, namespace, key in EXTRA_HEADS.values():
            if field not in extra:
                continue
            tags = [
                [self.vocab.get_token_from_index(t, namespace) for t in row[:n]]
                for row, n in zip(extra[field], lengths)
            ]
            if field == "lemma_rules":
                tags = [predicted_lemmas(list(words), rules) for words, rules in zip(output_dict["words"], tags)]
                if self.attested_words is not None and top is not None and top_logits is not None:
                    tags = self._attested_lemmas(
                        output_dict["words"], tags, top.cpu().tolist(), top_logits.cpu().tolist()
                    )
                if self.lemma_lexicon is not None:
                    tag_sets = output_dict.get("predicted_upos") or output_dict.pop("given_upos", None)
                    if tag_sets is not None:
                        tags = [
                            self.lemma_lexicon.apply(words, upos, lemmas)
                            for words, upos, lemmas in zip(output_dict["words"], tag_sets, tags)
                        ]
            output_dict[f"predicted_{key}"] = tags
        return output_dict

    def _attested_lemmas(
        self, words: list[list[str]], lemmas: list[list[str]], top: list[Any], top_logits: list[Any]
    ) -> list[list[str]]:
        """Each sentence's script lemmas with `lemma_choice` applied (the lexicon still comes after)."""
        assert self.attested_words is not None
        rules = self.vocab.get_index_to_token_vocabulary(LEMMA_RULE_NAMESPACE)
        return [
            [
                self.attested_words.choose(form, lemma, [(rules[i], p) for i, p in zip(top[b][k], top_logits[b][k])])
                for k, (form, lemma) in enumerate(zip(sentence_words, sentence_lemmas))
            ]
            for b, (sentence_words, sentence_lemmas) in enumerate(zip(words, lemmas))
        ]

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        if reset and self._batches_without_trees and not self._attachment_scores._total_words:
            # `allennlp evaluate` on sentences without HEAD / DEPREL reported UAS and LAS of 0.0 (a
            # predictor never asks for the metrics, so parsing such a file is not refused)
            self._batches_without_trees = 0
            raise ConfigurationError(
                "no sentence of the data has a gold tree (HEAD and DEPREL are _): there is nothing to score; "
                "give a CoNLL-U file with trees to evaluate, or parse it with predict --use-dataset-reader"
            )
        if reset:
            self._batches_without_trees = 0
        scores = self._attachment_scores.get_metric(reset)
        metrics = {"UAS": scores["UAS"], "LAS": scores["LAS"]}
        if self._upos_accuracy is not None:
            metrics["upos_accuracy"] = self._upos_accuracy.get_metric(reset)
        for field, accuracy in self._extra_accuracy.items():
            metrics[f"{field}_accuracy"] = accuracy.get_metric(reset)
        return metrics
