"""The teacher side of parser distillation: frozen teacher scores (optionally cached) and the loss
of the seed paper's equation 3, KL(arc) + KL(label) + CE(arc) + CE(label)."""

from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary

from green_nlp.data.folds import sentence_fold
from green_nlp.dataset_readers.conllu_dependencies import DEPREL_NAMESPACE, UPOS_NAMESPACE
from green_nlp.nn.distillation import masked_kl_divergence
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
            raise ConfigurationError(
                f"student vocabulary differs from the teacher's in namespace '{namespace}' "
                f"(teacher {len(teacher_map)} entries, student {len(student_map)}; only in teacher: "
                f"{only_teacher}, only in student: {only_student}). Give the student the teacher's "
                f'vocabulary: "vocabulary": {{"type": "from_files", "directory": "{teacher_archive}"}}'
            )


class ParserDistiller(Distiller):
    """
    Holds a frozen teacher parser and turns student scores into the distillation loss.

    Not an `nn.Module` on purpose (see `Distillable`): the student keeps a plain reference to it,
    so the teacher's weights never enter the student's parameters, optimizer or saved `state_dict`.

    # Parameters

    teacher : `BiaffineDependencyParser`, or a list of them
        A list is a set of cross-fitting teachers: teacher `i` was trained without fold `i` of
        `len(teacher)` (see `green_nlp.data.folds`) and gives the targets for that fold's
        sentences only, so no target comes from a teacher that saw the sentence's gold tree.
    temperature : `float`, optional (default = `1.0`, the paper)
    kl_weight, ce_weight : `float`, optional (default = `1.0` each, the paper's plain sum)
    cache_teacher_outputs : `bool`, optional (default = `True`)
        Keep each sentence's teacher scores after the first epoch instead of re-running the
        teacher (the teacher is frozen and in eval mode, so its scores do not change).
    """

    def __init__(
        self,
        teacher: Any,
        temperature: float = 1.0,
        kl_weight: float = 1.0,
        ce_weight: float = 1.0,
        cache_teacher_outputs: bool = True,
    ) -> None:
        super().__init__(temperature, kl_weight, ce_weight)
        self.teachers: List[Any] = list(teacher) if isinstance(teacher, (list, tuple)) else [teacher]
        if not self.teachers:
            raise ConfigurationError("no teacher given")
        for model in self.teachers:
            model.eval()
            for parameter in model.parameters():
                parameter.requires_grad_(False)
        self.teacher = self.teachers[0]
        self.cache: Optional[Dict[Tuple, Tuple[torch.Tensor, torch.Tensor]]] = {} if cache_teacher_outputs else None
        self.teacher_token_keys = set(self.teacher.text_field_embedder._token_embedders)
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
        metadata: Optional[List[Dict[str, Any]]] = None,
    ) -> Tuple[torch.Tensor, torch.Tensor]:
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
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        with torch.no_grad():
            scores = model.score(words, upos if model.upos_embedding is not None else None)
            return scores["arc_scores"], model.label_scores(scores, gold_heads)

    def teacher_scores(
        self,
        words: TextFieldTensors,
        upos: Optional[torch.Tensor],
        gold_heads: torch.Tensor,
        metadata: Optional[List[Dict[str, Any]]],
    ) -> Tuple[torch.Tensor, torch.Tensor]:
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
    def loss(
        self,
        scores: Dict[str, torch.Tensor],
        label_scores: torch.Tensor,
        gold_loss: torch.Tensor,
        words: TextFieldTensors,
        upos: Optional[torch.Tensor],
        gold_heads: torch.Tensor,
        metadata: Optional[List[Dict[str, Any]]],
    ) -> torch.Tensor:
        """kl_weight * (KL(arc) + KL(label)) + ce_weight * gold_loss, from what the student computed.

        `scores`: the student's `score()` (arc scores and mask); `label_scores`: its label scores at
        the gold heads; `gold_loss`: its own CE(arc) + CE(label) [+ CE(upos)]; `gold_heads`: the gold
        heads with ROOT's in front (batch, n+1). The KL terms are means over the real words (ROOT and
        padding left out), scaled by T^2 (`masked_kl_divergence`)."""
        teacher_arc, teacher_label = self.teacher_scores(words, upos, gold_heads, metadata)
        word_mask = scores["mask"][:, 1:]
        kl_arc = masked_kl_divergence(scores["arc_scores"][:, 1:], teacher_arc[:, 1:], word_mask, self.temperature)
        kl_label = masked_kl_divergence(label_scores[:, 1:], teacher_label[:, 1:], word_mask, self.temperature)
        loss = self.kl_weight * (kl_arc + kl_label)
        if self.ce_weight:
            loss = loss + self.ce_weight * gold_loss
        return loss
