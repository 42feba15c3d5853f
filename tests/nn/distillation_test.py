import pytest
import torch

from green_nlp.nn.distillation import masked_kl_divergence


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


def test_non_positive_temperature_is_rejected():
    with pytest.raises(ValueError, match="temperature"):
        masked_kl_divergence(torch.zeros(1, 2), torch.zeros(1, 2), torch.ones(1), 0.0)
