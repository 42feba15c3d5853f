"""The parser's distillation objective pinned by a hand computation.

docs/parser.md defines the loss as KL(arc) + KL(label) + CE(arc) + CE(label) (the seed paper's
equation 3), with a temperature T and KL / CE weights as config. Here it is recomputed word by word
with plain torch ops, on a padded batch of real `green_biaffine_parser` models (the fixture
teacher and a fresh student on its vocabulary), and compared with what training computes:

    loss = (1 / W) * sum over the W real words (ROOT and padding left out) of
           kl_weight * T^2 * (KL(p_teacher,T || p_student,T) over heads
                              + KL(p_teacher,T || p_student,T) over labels at the gold head)
           + ce_weight * (-log p_student(gold head) - log p_student(gold label | gold head))

where p_T = softmax(scores / T) over a word's candidate heads (every other position of its own
sentence, ROOT included) or over the labels, and the CE terms are at T = 1. The T^2 factor
(Hinton et al. 2015) keeps the KL gradients' size as T changes.
"""

import pytest
import torch
from allennlp.common import Params
from allennlp.data import Batch, DatasetReader, Instance
from allennlp.models import Model
from allennlp.models.archival import load_archive

from green_nlp.training.parser_distiller import ParserDistiller
from tests.conftest import FIXTURES

TEACHER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"
STUDENT_CONFIG = FIXTURES / "parser" / "student_experiment.jsonnet"
SENTENCES = FIXTURES / "ud" / "synthetic-tiny.conllu"


@pytest.fixture(scope="module")
def parts():
    """The fixture teacher, a student config's model on the teacher's vocabulary, and 4 sentences."""
    teacher = load_archive(str(TEACHER)).model
    params = Params.from_file(str(STUDENT_CONFIG))
    reader = DatasetReader.from_params(params.pop("dataset_reader"))
    instances = list(reader.read(str(SENTENCES)))[:4]
    for instance in instances:
        reader.apply_token_indexers(instance)
    torch.manual_seed(0)
    student = Model.from_params(vocab=teacher.vocab, params=params.pop("model"))
    return teacher, student, instances


def tensors(instances: list[Instance], vocab) -> dict:
    batch = Batch(instances)
    batch.index_instances(vocab)
    return batch.as_tensor_dict()


def distilled_loss(student, distiller: ParserDistiller, batch: dict) -> torch.Tensor:
    """The loss a training step computes: the student's forward pass in training mode."""
    student.attach_distiller(distiller)
    try:
        student.train()
        return student(**batch)["loss"].detach()
    finally:
        student.attach_distiller(None)


def kl_at_temperature(teacher_scores: torch.Tensor, student_scores: torch.Tensor, t: float) -> torch.Tensor:
    """KL(softmax(teacher / t) || softmax(student / t)) of one score vector, by its definition."""
    teacher_log = teacher_scores / t - torch.logsumexp(teacher_scores / t, dim=0)
    student_log = student_scores / t - torch.logsumexp(student_scores / t, dim=0)
    return (teacher_log.exp() * (teacher_log - student_log)).sum()


def nll(scores: torch.Tensor, gold: int) -> torch.Tensor:
    return torch.logsumexp(scores, dim=0) - scores[gold]


def hand_loss(teacher, student, batch: dict, temperature: float, kl_weight: float, ce_weight: float) -> float:
    """Equation 3 word by word. Each sentence is cut to its own length, so no padding can enter;
    label scores come from the all-pairs biaffine, not the gather-then-score path training uses."""
    student.eval()
    with torch.no_grad():
        own = {"tokens": batch["words"]["tokens"]}
        s, t = student.score(own, batch["upos"]), teacher.score(own, batch["upos"])
        # (batch, labels, dep, head)
        s_labels = student.label_scorer(s["label_dep"], s["label_head"])
        t_labels = teacher.label_scorer(t["label_dep"], t["label_head"])
    lengths = (batch["words"]["tokens"]["tokens"] != 0).sum(-1).tolist()
    total, words = 0.0, 0
    for b, n in enumerate(lengths):
        for i in range(1, n + 1):
            candidates = [h for h in range(n + 1) if h != i]  # own sentence, ROOT included, no self-loop
            gold_head = int(batch["head_indices"][b, i - 1])
            gold_label = int(batch["head_tags"][b, i - 1])
            s_arc, t_arc = s["arc_scores"][b, i, candidates], t["arc_scores"][b, i, candidates]
            s_label, t_label = s_labels[b, :, i, gold_head], t_labels[b, :, i, gold_head]
            kl = temperature**2 * (
                kl_at_temperature(t_arc, s_arc, temperature) + kl_at_temperature(t_label, s_label, temperature)
            )
            ce = nll(s_arc, candidates.index(gold_head)) + nll(s_label, gold_label)
            total += float(kl_weight * kl + ce_weight * ce)
            words += 1
    return total / words


def test_the_fixture_batch_is_padded(parts):
    teacher, _, instances = parts
    lengths = (tensors(instances, teacher.vocab)["words"]["tokens"]["tokens"] != 0).sum(-1)
    assert len(set(lengths.tolist())) > 1  # the hand computation below is meaningless without padding


@pytest.mark.parametrize("cache", [False, True])
@pytest.mark.parametrize("temperature, kl_weight, ce_weight", [(2.0, 1.0, 1.0), (0.5, 0.7, 1.3)])
def test_distillation_loss_equals_equation_3_by_hand(parts, temperature, kl_weight, ce_weight, cache):
    teacher, student, instances = parts
    batch = tensors(instances, teacher.vocab)
    distiller = ParserDistiller(
        teacher, temperature=temperature, kl_weight=kl_weight, ce_weight=ce_weight, cache_teacher_outputs=cache
    )
    expected = hand_loss(teacher, student, batch, temperature, kl_weight, ce_weight)
    got = distilled_loss(student, distiller, batch).item()
    assert got == pytest.approx(expected, rel=1e-5)
    if cache:  # the second epoch reads the teacher's scores from the cache: the same loss
        assert distilled_loss(student, distiller, batch).item() == pytest.approx(expected, rel=1e-5)


def test_the_kl_terms_are_not_the_cross_entropy(parts):
    """The hand formula separates its terms: KL alone (ce_weight 0) and CE alone (kl_weight 0) each
    match, so a dropped or doubled term shows up in one of them."""
    teacher, student, instances = parts
    batch = tensors(instances, teacher.vocab)
    kl_only = hand_loss(teacher, student, batch, 3.0, 1.0, 0.0)
    ce_only = hand_loss(teacher, student, batch, 3.0, 0.0, 1.0)
    assert kl_only > 0.01 and ce_only > 0.01
    assert distilled_loss(student, ParserDistiller(teacher, 3.0, 1.0, 0.0), batch).item() == pytest.approx(
        kl_only, rel=1e-5
    )
    assert distilled_loss(student, ParserDistiller(teacher, 3.0, 0.0, 1.0), batch).item() == pytest.approx(
        ce_only, rel=1e-5
    )


def test_a_sentence_scores_and_loses_the_same_alone_as_in_a_padded_batch(parts):
    """Padding must change nothing a sentence sees: its distribution over heads (the arc scores'
    softmax over the whole padded row, as the loss takes it), its label scores at the gold heads,
    and its share of the loss. The batch loss is a mean over words, so it must equal the
    word-weighted mean of the sentences' losses alone."""
    teacher, student, instances = parts
    vocab = teacher.vocab
    distiller = ParserDistiller(teacher, temperature=2.0, cache_teacher_outputs=False)
    batch = tensors(instances, vocab)
    student.eval()
    with torch.no_grad():
        padded = student.score(batch["words"], batch["upos"])
        padded_labels = student.label_scores(padded, student._with_root(batch["head_indices"]))
    lengths = (batch["words"]["tokens"]["tokens"] != 0).sum(-1).tolist()
    weighted = 0.0
    for b, n in enumerate(lengths):
        alone = tensors([instances[b]], vocab)
        with torch.no_grad():
            scores = student.score(alone["words"], alone["upos"])
            labels = student.label_scores(scores, student._with_root(alone["head_indices"]))
        assert scores["arc_scores"].shape[-1] == n + 1
        assert torch.allclose(padded["arc_scores"][b, : n + 1, : n + 1], scores["arc_scores"][0], atol=1e-5)
        # the padded row's softmax puts nothing on padding: the same distribution over heads
        padded_heads = padded["arc_scores"][b, 1 : n + 1].log_softmax(-1)
        assert torch.allclose(padded_heads[:, : n + 1], scores["arc_scores"][0, 1:].log_softmax(-1), atol=1e-5)
        assert torch.allclose(padded_heads[:, n + 1 :].exp(), torch.zeros(1), atol=1e-6)
        assert torch.allclose(padded_labels[b, : n + 1], labels[0], atol=1e-5)
        weighted += n * distilled_loss(student, distiller, alone).item()
    assert distilled_loss(student, distiller, batch).item() == pytest.approx(weighted / sum(lengths), rel=1e-5)
