"""The silver-sentence loss pinned by hand: KL to the teacher's stored top-k heads (renormalised), the
label KL at each of those heads weighted by the head's probability, the UPOS KL, and no CE; padding
and masking checked; mixed with gold sentences as a mean over all real words.

A stand-in student with hand-set scores (label scores looked up per (word, head) from a table) keeps
every number on paper:

    silver word i:  sum_j p_ij (log p_ij - log q_i(h_ij))                      (arcs, p renormalised)
                  + sum_j p_ij sum_l r_ijl (log r_ijl - log s_i(l | h_ij))    (labels at each kept head)
                  + sum_t u_it (log u_it - log v_i(t))                         (UPOS)
    batch loss   = (sum over gold words of the gold loss + kl_weight * sum over silver words) / all words
"""

import math

import numpy as np
import pytest
import torch
from allennlp.data import Vocabulary

from green_nlp.data.teacher_cache import SilverTargets
from green_nlp.training.parser_distiller import ParserDistillationInput, ParserDistiller

DEPRELS = ("root", "nsubj", "obj")
UPOS = ("NOUN", "VERB")


class StandIn:
    """Label scores from `scores["label_table"]` (batch, n+1, n+1, labels); its own loss is the arc
    CE alone, so a gold term is easy to recompute."""

    def __init__(self) -> None:
        self.vocab = Vocabulary()
        self.vocab.add_tokens_to_namespace(list(DEPRELS), "deprel_labels")
        self.vocab.add_tokens_to_namespace(list(UPOS), "upos")
        self.loss_rows = []
        self.extra_targets_seen = []

    def label_scores(self, scores, heads):
        table = scores["label_table"]
        index = heads[:, :, None, None].expand(-1, -1, 1, table.size(-1))
        return table.gather(2, index).squeeze(2)

    def loss(self, scores, head_indices, head_tags, upos=None, gold_label_scores=None, extra_targets=None):
        self.loss_rows.append(scores["arc_scores"].size(0))
        self.extra_targets_seen.append(extra_targets)
        mask = scores["mask"][:, 1:].float()
        nll = -scores["arc_scores"].log_softmax(-1)[:, 1:].gather(-1, head_indices.unsqueeze(-1)).squeeze(-1)
        return (nll * mask).sum() / mask.sum()


def vocab_index(student, name, namespace):
    return student.vocab.get_token_index(name, namespace)


def targets(student, n, heads, head_probs, labels, label_probs, upos, upos_probs):
    deprels = tuple(student.vocab.get_token_from_index(i, "deprel_labels") for i in range(len(DEPRELS)))
    tags = tuple(student.vocab.get_token_from_index(i, "upos") for i in range(len(UPOS) + 2))
    return SilverTargets(
        np.array(heads).reshape(n, 2),
        np.array(head_probs, dtype=np.float32).reshape(n, 2),
        np.array(labels).reshape(n, 2, 2),
        np.array(label_probs, dtype=np.float32).reshape(n, 2, 2),
        np.array(upos).reshape(n, 2),
        np.array(upos_probs, dtype=np.float32).reshape(n, 2),
        deprels,
        tags,
        "hand.jsonl",
    )


def batch(student, silver_first=True, gold_second=False, padding_score=0.0):
    """Two sentences: 2 words (silver) and 1 word (silver, or gold), padded to 2 words."""
    torch.manual_seed(0)
    arc = torch.randn(2, 3, 3)
    arc[1, 2, :] = padding_score  # the padding word's row: must never count
    arc[1, :, 2] = -1e4  # a padding head, masked as `score()` masks it
    table = torch.randn(2, 3, 3, len(DEPRELS))
    table[1, 2] = padding_score
    upos_logits = torch.randn(2, 2, len(UPOS) + 2)
    upos_logits[1, 1] = padding_score
    mask = torch.tensor([[True, True, True], [True, True, False]])
    scores = {"arc_scores": arc, "label_table": table, "mask": mask, "upos_logits": upos_logits}
    noun, verb = vocab_index(student, "NOUN", "upos"), vocab_index(student, "VERB", "upos")
    first = targets(
        student,
        2,
        heads=[2, 0, 0, 1],
        head_probs=[0.7, 0.2, 0.6, 0.3],
        labels=[1, 2, 0, 1, 0, 2, 1, 0],
        label_probs=[0.8, 0.1, 0.9, 0.05, 0.5, 0.4, 1.0, 0.0],
        upos=[noun, verb, verb, noun],
        upos_probs=[0.9, 0.1, 0.6, 0.3],
    )
    second = targets(
        student,
        1,
        heads=[0, 0],
        head_probs=[1.0, 0.0],
        labels=[0, 1, 0, 0],
        label_probs=[0.7, 0.2, 0.0, 0.0],
        upos=[verb, noun],
        upos_probs=[0.5, 0.5],
    )
    metadata = [
        {"words": ["a", "b"], "silver": first},
        {"words": ["c"]} if gold_second else {"words": ["c"], "silver": second},
    ]
    head_indices = torch.tensor([[0, 1], [0, 0]])  # the 1-best trees, for silver: no CE may use them
    head_tags = torch.tensor([[0, 1], [0, 0]])
    gold_label_scores = student.label_scores(scores, torch.cat([torch.zeros(2, 1, dtype=torch.long), head_indices], 1))
    return ParserDistillationInput(
        student, scores, gold_label_scores, torch.tensor(99.0), {}, head_indices, head_tags, None, metadata
    ), (first, second)


def kl(p, student_logits, index):
    total = sum(p)
    q = torch.log_softmax(student_logits, -1)
    return sum((x / total) * (math.log(x / total) - q[i].item()) for x, i in zip(p, index) if x > 0)


def hand_word(scores, b, i, t: SilverTargets, w):
    """One silver word (i counts words from 1) by the formula in the module's docstring."""
    arc = kl(t.head_probs[w].tolist(), scores["arc_scores"][b, i], t.heads[w].tolist())
    weights = t.head_probs[w] / t.head_probs[w].sum()
    label = 0.0
    for j in range(2):
        if t.head_probs[w, j] == 0:
            continue
        label += weights[j] * kl(
            t.label_probs[w, j].tolist(), scores["label_table"][b, i, t.heads[w, j]], t.labels[w, j].tolist()
        )
    upos = kl(t.upos_probs[w].tolist(), scores["upos_logits"][b, i - 1], t.upos[w].tolist())
    return arc + label + upos


def test_silver_only_loss_by_hand():
    student = StandIn()
    inputs, (first, second) = batch(student)
    s = inputs.scores
    words = [hand_word(s, 0, 1, first, 0), hand_word(s, 0, 2, first, 1), hand_word(s, 1, 1, second, 0)]
    expected = 0.5 * sum(words) / 3  # kl_weight 0.5, mean over the 3 real words
    distiller = ParserDistiller(None, kl_weight=0.5, ce_weight=7.0)
    assert distiller.loss(inputs).item() == pytest.approx(expected, rel=1e-5)
    assert student.loss_rows == []  # no CE: the student's own loss never runs on silver sentences
    # the 1-best trees and the given gold loss change nothing
    other = ParserDistillationInput(**{**inputs.__dict__, "head_indices": torch.tensor([[2, 0], [0, 0]])})
    assert distiller.loss(other).item() == pytest.approx(expected, rel=1e-5)


def test_padding_never_counts():
    student = StandIn()
    plain, _ = batch(student, padding_score=0.0)
    wild, _ = batch(student, padding_score=1e3)
    distiller = ParserDistiller(None)
    assert distiller.loss(wild).item() == pytest.approx(distiller.loss(plain).item(), rel=1e-6)


def test_temperature_sharpens_the_stored_probabilities():
    student = StandIn()
    inputs, (first, _) = batch(student)
    t = 2.0
    s = inputs.scores
    p = first.head_probs[0] ** (1 / t)
    arc_t = kl(p.tolist(), s["arc_scores"][0, 1] / t, first.heads[0].tolist()) * t * t
    full = ParserDistiller(None, temperature=t)
    # the arc term of word 1 alone: zero its label and UPOS targets
    first.label_probs[:] = 0
    first.upos_probs[:] = 0
    first.head_probs[1] = 0
    inputs.metadata[1]["silver"].head_probs[:] = 0
    inputs.metadata[1]["silver"].label_probs[:] = 0
    inputs.metadata[1]["silver"].upos_probs[:] = 0
    assert full.loss(inputs).item() == pytest.approx(arc_t / 3, rel=1e-5)


def test_gold_and_silver_sentences_share_a_batch():
    student = StandIn()
    inputs, (first, _) = batch(student, gold_second=True)
    s = inputs.scores
    silver_sum = hand_word(s, 0, 1, first, 0) + hand_word(s, 0, 2, first, 1)
    gold_ce = -torch.log_softmax(s["arc_scores"][1, 1, :2], -1)[0].item()  # sentence 2: 1 word, head 0
    distiller = ParserDistiller(None, kl_weight=0.5, ce_weight=2.0)
    expected = (0.5 * silver_sum + 2.0 * gold_ce) / 3
    assert distiller.loss(inputs).item() == pytest.approx(expected, rel=1e-5)
    assert student.loss_rows == [1]  # the CE recomputed on the gold sentence only


def test_the_gold_rows_recomputed_loss_keeps_the_extra_heads_targets():
    """A student with LEMMA/FEATS/XPOS heads: the CE recomputed on the gold rows of a mixed batch gets those
    rows' tags of the extra heads (and only theirs), not just arcs, labels and UPOS."""
    student = StandIn()
    inputs, _ = batch(student, gold_second=True)
    lemma_rules = torch.tensor([[4, 5], [6, 0]])
    feats = torch.tensor([[7, 8], [9, 0]])
    inputs = ParserDistillationInput(
        **{**inputs.__dict__, "extra_targets": {"lemma_rules": lemma_rules, "feats": feats}}
    )
    ParserDistiller(None).loss(inputs)
    [seen] = student.extra_targets_seen
    assert set(seen) == {"lemma_rules", "feats"}
    assert seen["lemma_rules"].tolist() == [[6, 0]] and seen["feats"].tolist() == [[9, 0]]  # sentence 2, the gold one


def test_a_cache_with_other_label_indices_is_refused():
    from allennlp.common.checks import ConfigurationError

    student = StandIn()
    inputs, (first, _) = batch(student)
    first.deprels = tuple(reversed(first.deprels))
    with pytest.raises(ConfigurationError, match="hand.jsonl.*deprel_labels"):
        ParserDistiller(None).loss(inputs)
