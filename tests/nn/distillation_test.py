import math

import pytest
import torch

from green_nlp.nn.distillation import masked_kl_divergence, sparse_kl_divergence


def test_kl_is_zero_when_student_equals_teacher_and_positive_otherwise():
    logits = torch.randn(3, 5, 7)
    mask = torch.ones(3, 5)
    assert masked_kl_divergence(logits, logits.clone(), mask).item() == pytest.approx(0.0, abs=1e-6)
    assert masked_kl_divergence(torch.randn(3, 5, 7), logits, mask).item() > 0


def test_kl_matches_torch_reference_and_scales_with_temperature_squared():
    student, teacher = torch.randn(4, 6), torch.randn(4, 6)
    mask = torch.ones(4)
    reference = torch.nn.functional.kl_div(
        student.log_softmax(-1), teacher.log_softmax(-1), log_target=True, reduction="batchmean"
    )
    assert masked_kl_divergence(student, teacher, mask).item() == pytest.approx(reference.item(), rel=1e-5)
    t = 2.0
    reference_t = (
        torch.nn.functional.kl_div(
            (student / t).log_softmax(-1), (teacher / t).log_softmax(-1), log_target=True, reduction="batchmean"
        )
        * t
        * t
    )
    assert masked_kl_divergence(student, teacher, mask, t).item() == pytest.approx(reference_t.item(), rel=1e-5)


def test_masked_positions_do_not_count():
    student, teacher = torch.randn(2, 3, 4), torch.randn(2, 3, 4)
    mask = torch.tensor([[1, 1, 0], [1, 0, 0]])
    changed = student.clone()
    changed[0, 2] = 100.0
    changed[1, 1:] = -100.0
    assert masked_kl_divergence(student, teacher, mask) == pytest.approx(
        masked_kl_divergence(changed, teacher, mask).item()
    )


def test_gradients_flow_to_the_student_only():
    student = torch.randn(2, 5, requires_grad=True)
    teacher = torch.randn(2, 5, requires_grad=True)
    masked_kl_divergence(student, teacher.detach(), torch.ones(2)).backward()
    assert student.grad is not None and student.grad.abs().sum() > 0
    assert teacher.grad is None


def test_sparse_kl_matches_the_definition_by_hand():
    """KL(p || q) with p the renormalised top-k entries and q the student's full softmax; padding
    entries (probability 0) add nothing; T^2 scaling and p^(1/T) sharpening at T = 2."""
    student = torch.tensor([[1.0, 2.0, 0.5, -1.0]])
    index = torch.tensor([[1, 0, 3]])
    probs = torch.tensor([[0.6, 0.2, 0.0]])  # the third entry is padding
    q = student.softmax(-1)[0]
    p1, p0 = 0.6 / 0.8, 0.2 / 0.8
    expected = p1 * (math.log(p1) - math.log(q[1])) + p0 * (math.log(p0) - math.log(q[0]))
    assert sparse_kl_divergence(student, index, probs).item() == pytest.approx(expected, rel=1e-6)
    t = 2.0
    qt = (student / t).softmax(-1)[0]
    a, b = 0.6**0.5, 0.2**0.5
    p1, p0 = a / (a + b), b / (a + b)
    expected_t = (p1 * (math.log(p1) - math.log(qt[1])) + p0 * (math.log(p0) - math.log(qt[0]))) * t * t
    assert sparse_kl_divergence(student, index, probs, t).item() == pytest.approx(expected_t, rel=1e-6)
    nothing = sparse_kl_divergence(student, index, torch.zeros(1, 3))
    assert nothing.item() == 0.0


def test_sparse_kl_equals_the_full_kl_when_nothing_is_cut():
    student, teacher = torch.randn(3, 6), torch.randn(3, 6)
    probs, index = teacher.softmax(-1).topk(6, dim=-1)
    full = masked_kl_divergence(student, teacher, torch.ones(3))
    assert sparse_kl_divergence(student, index, probs).mean().item() == pytest.approx(full.item(), rel=1e-5)
