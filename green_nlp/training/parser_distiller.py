"""The teacher side of parser distillation: frozen teacher scores (optionally cached) and the loss
of the seed paper's equation 3, KL(arc) + KL(label) + CE(arc) + CE(label); and, for silver
sentences (text the teacher parsed once, `green_nlp.data.teacher_cache`), the teacher's stored
top-k distributions alone."""

from dataclasses import dataclass, replace
from typing import Any, Optional, Protocol

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary

from green_nlp.data.folds import sentence_fold
from green_nlp.data.teacher_cache import SilverTargets
from green_nlp.dataset_readers.conllu_dependencies import DEPREL_NAMESPACE, UPOS_NAMESPACE
from green_nlp.nn.distillation import masked_kl_divergence, sharpened, sparse_kl_divergence
from green_nlp.training.distiller import Distiller

_PADDED_SCORE = -1e4
# Namespaces whose indices must mean the same thing to teacher and student.
SHARED_NAMESPACES = (DEPREL_NAMESPACE, UPOS_NAMESPACE, "tokens", "token_characters")


def check_vocabularies_match(teacher: Vocabulary, student: Vocabulary, teacher_archive: str = "the teacher") -> None:
    """Label and feature indices must agree, or the KL terms compare different classes."""
    for namespace in SHARED_NAMESPACES:
        teacher_map = teacher.get_token_to_index_vocabulary(namespace) if namespace in teacher._token_to_index else {}
        if not teacher_map:
            continue
        student_map = student.get_token_to_index_vocabulary(namespace)
        if teacher_map != student_map:
            only_teacher = sorted(set(teacher_map) - set(student_map))[:5]
            only_student = sorted(set(student_map) - set(teacher_map))[:5]
            if only_teacher or only_student:
                how = f"only in teacher: {only_teacher}, only in student: {only_student}"
            else:  # the same entries in another order: say which indices disagree
                moved = sorted((token for token in teacher_map if teacher_map[token] != student_map[token]), key=str)
                how = "the same entries at other indices: " + ", ".join(
                    f"{token!r} is {teacher_map[token]} in the teacher, {student_map[token]} in the student"
                    for token in moved[:3]
                )
            raise ConfigurationError(
                f"student vocabulary differs from the teacher's in namespace '{namespace}' "
                f"(teacher {len(teacher_map)} entries, student {len(student_map)}; {how}). Give the student the "
                f'teacher\'s vocabulary: "vocabulary": {{"type": "from_files", "directory": "{teacher_archive}"}}'
            )


class ParserScorer(Protocol):
    """What the distiller asks of the student parser (`green_biaffine_parser` has both)."""

    vocab: Vocabulary

    def label_scores(self, scores: dict[str, torch.Tensor], heads: torch.Tensor) -> torch.Tensor: ...

    def loss(
        self,
        scores: dict[str, torch.Tensor],
        head_indices: torch.Tensor,
        head_tags: torch.Tensor,
        upos: Optional[torch.Tensor] = None,
        gold_label_scores: Optional[torch.Tensor] = None,
        extra_targets: Optional[dict[str, torch.Tensor]] = None,
    ) -> torch.Tensor: ...


@dataclass(frozen=True)
class ParserDistillationInput:
    """
    What a parser student gives its distiller for one batch.

    `scores`: the student's `score()` (arc scores (batch, n+1, n+1), label MLP outputs, mask
    (batch, n+1), maybe UPOS logits); `gold_label_scores`: its label scores at the given heads
    (batch, n+1, labels); `gold_loss`: its own CE(arc) + CE(label) [+ CE(upos)] over the batch, or
    None to have it recomputed; `head_indices`, `head_tags`: the given trees (batch, n), gold or, on
    silver sentences, the teacher's 1-best; `metadata`: the reader's, where a silver sentence
    carries its `SilverTargets` under `"silver"`; `extra_targets`: the gold tags of the student's
    extra heads (lemma scripts, FEATS, XPOS: (batch, n) each), so a recomputed gold loss keeps them.
    """

    student: ParserScorer
    scores: dict[str, torch.Tensor]
    gold_label_scores: torch.Tensor
    gold_loss: Optional[torch.Tensor]
    words: TextFieldTensors
    head_indices: torch.Tensor
    head_tags: torch.Tensor
    upos: Optional[torch.Tensor] = None
    metadata: Optional[list[dict[str, Any]]] = None
    extra_targets: Optional[dict[str, torch.Tensor]] = None

    @property
    def gold_heads(self) -> torch.Tensor:
        """The given heads with ROOT's (unused) head 0 in front: (batch, n+1)."""
        return torch.cat([self.head_indices.new_zeros(self.head_indices.size(0), 1), self.head_indices], dim=1)

    def silver_rows(self) -> torch.Tensor:
        """(batch,) bool: the sentences that carry silver targets."""
        flags = [bool(m) and m.get("silver") is not None for m in (self.metadata or [])]
        if not flags:
            flags = [False] * self.head_indices.size(0)
        return torch.tensor(flags, dtype=torch.bool, device=self.head_indices.device)

    def rows(self, keep: torch.Tensor) -> "ParserDistillationInput":
        """The same input for the sentences `keep` (bool, (batch,)); the gold loss is recomputed."""
        index = keep.nonzero().squeeze(1)
        return replace(
            self,
            scores={key: value[index] for key, value in self.scores.items()},
            gold_label_scores=self.gold_label_scores[index],
            gold_loss=None,
            words={key: {name: t[index] for name, t in value.items()} for key, value in self.words.items()},
            head_indices=self.head_indices[index],
            head_tags=self.head_tags[index],
            upos=None if self.upos is None else self.upos[index],
            metadata=None if self.metadata is None else [self.metadata[i] for i in index.tolist()],
            extra_targets=None
            if self.extra_targets is None
            else {field: tags[index] for field, tags in self.extra_targets.items()},
        )


class ParserDistiller(Distiller[ParserDistillationInput]):
    """
    Holds a frozen teacher parser and turns student scores into the distillation loss.

    Not an `nn.Module` on purpose (see `Distillable`): the student keeps a plain reference to it,
    so the teacher's weights never enter the student's parameters, optimizer or saved `state_dict`.

    # Parameters

    teacher : `BiaffineDependencyParser`, or a list of them, or `None`
        `None`: no teacher runs beside the student; gold sentences train on their CE alone and
        silver sentences on the targets stored with them. A list is a set of cross-fitting
        teachers: teacher `i` was trained without fold `i` of `len(teacher)` (see
        `green_nlp.data.folds`) and gives the targets for that fold's sentences only, so no
        target comes from a teacher that saw the sentence's gold tree.
    temperature : `float`, optional (default = `1.0`, the paper)
    kl_weight, ce_weight : `float`, optional (default = `1.0` each, the paper's plain sum)
    cache_teacher_outputs : `bool`, optional (default = `True`)
        Keep each sentence's teacher scores after the first epoch instead of re-running the
        teacher (the teacher is frozen and in eval mode, so its scores do not change).
    """

    def __init__(
        self,
        teacher: Any = None,
        temperature: float = 1.0,
        kl_weight: float = 1.0,
        ce_weight: float = 1.0,
        cache_teacher_outputs: bool = True,
    ) -> None:
        super().__init__(temperature, kl_weight, ce_weight)
        self.teachers: list[Any] = (
            [] if teacher is None else list(teacher) if isinstance(teacher, (list, tuple)) else [teacher]
        )
        if isinstance(teacher, (list, tuple)) and not self.teachers:
            raise ConfigurationError("an empty list of teachers given; give one, several, or none (null)")
        for model in self.teachers:
            model.eval()
            for parameter in model.parameters():
                parameter.requires_grad_(False)
        self.teacher = self.teachers[0] if self.teachers else None
        self.cache: Optional[dict[tuple, tuple[torch.Tensor, torch.Tensor]]] = {} if cache_teacher_outputs else None
        self.teacher_token_keys = (
            set(self.teacher.text_field_embedder._token_embedders) if self.teacher is not None else set()
        )
        self._checked_label_orders: set = set()
        for model in self.teachers[1:]:
            if set(model.text_field_embedder._token_embedders) != self.teacher_token_keys:
                raise ConfigurationError(
                    "cross-fitting teachers must embed the same token indexers (the first "
                    f"uses {sorted(self.teacher_token_keys)}, another "
                    f"{sorted(model.text_field_embedder._token_embedders)}); train them all "
                    "from one config"
                )

    # ------------------------------------------------------------ teacher side
    def _run_teacher(
        self,
        words: TextFieldTensors,
        upos: Optional[torch.Tensor],
        gold_heads: torch.Tensor,
        metadata: Optional[list[dict[str, Any]]] = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        missing = self.teacher_token_keys - set(words)
        if missing:
            raise ConfigurationError(
                f"the teacher needs token indexers {sorted(missing)} that the student's dataset reader does "
                "not produce; add them to the student's dataset_reader.token_indexers"
            )
        teacher_words = {key: value for key, value in words.items() if key in self.teacher_token_keys}
        if len(self.teachers) == 1:
            return self._score(self.teacher, teacher_words, upos, gold_heads)
        if metadata is None:
            raise ConfigurationError("cross-fitting teachers need each sentence's words (the metadata field)")
        # each sentence goes to the one teacher that did not train on it
        folds = torch.tensor(
            [sentence_fold(m["words"], len(self.teachers)) for m in metadata], device=gold_heads.device
        )
        arc: Optional[torch.Tensor] = None
        label: Optional[torch.Tensor] = None
        for fold, model in enumerate(self.teachers):
            rows = (folds == fold).nonzero().squeeze(1)
            if rows.numel() == 0:
                continue
            fold_words = {
                key: {name: tensor[rows] for name, tensor in value.items()} for key, value in teacher_words.items()
            }
            fold_arc, fold_label = self._score(
                model, fold_words, None if upos is None else upos[rows], gold_heads[rows]
            )
            if arc is None or label is None:
                arc = fold_arc.new_full((len(metadata),) + fold_arc.shape[1:], _PADDED_SCORE)
                label = fold_label.new_zeros((len(metadata),) + fold_label.shape[1:])
            arc[rows], label[rows] = fold_arc, fold_label
        assert arc is not None and label is not None
        return arc, label

    @staticmethod
    def _score(
        model: Any, words: TextFieldTensors, upos: Optional[torch.Tensor], gold_heads: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        with torch.no_grad():
            scores = model.score(words, upos if model.upos_embedding is not None else None)
            return scores["arc_scores"], model.label_scores(scores, gold_heads)

    def teacher_scores(
        self,
        words: TextFieldTensors,
        upos: Optional[torch.Tensor],
        gold_heads: torch.Tensor,
        metadata: Optional[list[dict[str, Any]]],
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher arc scores (batch, n+1, n+1) and label scores at gold heads (batch, n+1, labels)."""
        if self.cache is None or metadata is None:
            return self._run_teacher(words, upos, gold_heads, metadata)
        # one key per sentence, whatever batch it lands in: the gold heads without the batch's padding
        keys = [
            (tuple(m["words"]), tuple(m.get("upos") or ()), tuple(h[: len(m["words"])].tolist()))
            for m, h in zip(metadata, gold_heads[:, 1:])
        ]
        if any(key not in self.cache for key in keys):
            arc, label = self._run_teacher(words, upos, gold_heads, metadata)
            for b, key in enumerate(keys):
                n = len(key[0])
                self.cache[key] = (arc[b, : n + 1, : n + 1].clone(), label[b, : n + 1].clone())
            return arc, label
        batch, length = gold_heads.shape
        first_label = self.cache[keys[0]][1]
        arc = first_label.new_full((batch, length, length), _PADDED_SCORE)
        label = first_label.new_zeros((batch, length, first_label.size(-1)))
        for b, key in enumerate(keys):
            cached_arc, cached_label = self.cache[key]
            n1 = cached_arc.size(0)
            arc[b, :n1, :n1] = cached_arc
            label[b, :n1] = cached_label
        return arc, label

    # ------------------------------------------------------------------- loss
    def loss(self, inputs: ParserDistillationInput) -> torch.Tensor:
        """The batch's loss, a mean over its real words (ROOT and padding left out).

        Gold sentences: kl_weight * (KL(arc) + KL(label at the gold head)) against the teacher run
        beside the student + ce_weight * the student's CE, the seed paper's equation 3 (CE alone when
        no teacher is given). Silver sentences: kl_weight * (KL to the teacher's top-k heads,
        renormalised + the label KL at each of those heads, weighted by the head's probability +
        the UPOS KL where both have UPOS), and no CE. All KL terms at the temperature, scaled by T^2."""
        silver = inputs.silver_rows()
        if not bool(silver.any()):
            return self._gold_loss(inputs)
        words_per_row = inputs.scores["mask"][:, 1:].sum(-1).to(inputs.scores["arc_scores"].dtype)
        gold_words, silver_words = words_per_row[~silver].sum(), words_per_row[silver].sum()
        total = self.kl_weight * self._silver_sum(inputs.rows(silver))
        if bool((~silver).any()):
            total = total + self._gold_loss(inputs.rows(~silver)) * gold_words
        return total / (gold_words + silver_words).clamp(min=1)

    def _gold_loss(self, inputs: ParserDistillationInput) -> torch.Tensor:
        """Equation 3 on gold sentences, a mean over their words."""
        gold_loss = inputs.gold_loss
        if gold_loss is None:
            gold_loss = inputs.student.loss(
                inputs.scores,
                inputs.head_indices,
                inputs.head_tags,
                inputs.upos,
                inputs.gold_label_scores,
                extra_targets=inputs.extra_targets,
            )
        if self.teacher is None:
            return self.ce_weight * gold_loss
        scores, label_scores = inputs.scores, inputs.gold_label_scores
        teacher_arc, teacher_label = self.teacher_scores(inputs.words, inputs.upos, inputs.gold_heads, inputs.metadata)
        word_mask = scores["mask"][:, 1:]
        kl_arc = masked_kl_divergence(scores["arc_scores"][:, 1:], teacher_arc[:, 1:], word_mask, self.temperature)
        kl_label = masked_kl_divergence(label_scores[:, 1:], teacher_label[:, 1:], word_mask, self.temperature)
        loss = self.kl_weight * (kl_arc + kl_label)
        if self.ce_weight:
            loss = loss + self.ce_weight * gold_loss
        return loss

    def _silver_sum(self, inputs: ParserDistillationInput) -> torch.Tensor:
        """The silver terms summed over the words of silver sentences (unweighted)."""
        assert inputs.metadata is not None
        targets: list[SilverTargets] = [m["silver"] for m in inputs.metadata]
        self._check_label_order(inputs.student, targets[0])
        scores = inputs.scores
        word_mask = scores["mask"][:, 1:].to(scores["arc_scores"].dtype)
        length = word_mask.size(1)
        for b, (target, m) in enumerate(zip(targets, inputs.metadata)):
            real = int(word_mask[b].sum().item())
            if target.length != real:
                raise ConfigurationError(
                    f"silver sentence {m.get('source', b)}: {target.length} words in its targets, {real} in the batch"
                )
        device = scores["arc_scores"].device
        padded = SilverTargets.pad(targets, length)
        heads = torch.as_tensor(padded["heads"], device=device)  # (batch, n, k)
        head_probs = torch.as_tensor(padded["head_probs"], device=device)
        # (batch, n)
        arc = sparse_kl_divergence(scores["arc_scores"][:, 1:], heads, head_probs, self.temperature)
        head_weights = sharpened(head_probs.to(arc.dtype))  # the teacher's head distribution, renormalised
        labels = torch.as_tensor(padded["labels"], device=device)  # (batch, n, k, m)
        label_probs = torch.as_tensor(padded["label_probs"], device=device)
        label = torch.zeros_like(arc)
        root = heads.new_zeros(heads.size(0), 1)
        for j in range(heads.size(-1)):
            # (batch, n, labels): the student's label scores with each word attached to its j-th head
            at_head = inputs.student.label_scores(scores, torch.cat([root, heads[..., j]], dim=1))[:, 1:]
            kl = sparse_kl_divergence(at_head, labels[..., j, :], label_probs[..., j, :], self.temperature)
            label = label + head_weights[..., j] * kl
        total = arc + label
        if "upos_logits" in scores and padded.get("upos") is not None:
            upos = torch.as_tensor(padded["upos"], device=device)
            upos_probs = torch.as_tensor(padded["upos_probs"], device=device)
            total = total + sparse_kl_divergence(scores["upos_logits"], upos, upos_probs, self.temperature)
        return (total * word_mask).sum()

    def _check_label_order(self, student: ParserScorer, target: SilverTargets) -> None:
        """The stored label indices must mean the student's labels (its vocabulary's order)."""
        key = (id(target.deprels), id(target.upos_tags))
        if key in self._checked_label_orders:
            return
        for namespace, names in ((DEPREL_NAMESPACE, target.deprels), (UPOS_NAMESPACE, target.upos_tags)):
            if names is None:
                continue
            own = student.vocab.get_index_to_token_vocabulary(namespace)
            if [own.get(i) for i in range(len(names))] != list(names):
                raise ConfigurationError(
                    f"the silver cache {target.cache} orders its '{namespace}' labels differently from the "
                    f"student's vocabulary; give the student the teacher's vocabulary "
                    f'("vocabulary": {{"type": "from_files", "directory": TEACHER_ARCHIVE}})'
                )
        self._checked_label_orders.add(key)
