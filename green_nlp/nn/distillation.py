"""Knowledge-distillation losses (pure functions, shared by every green_nlp student)."""

import torch


def masked_kl_divergence(
    student_logits: torch.Tensor, teacher_logits: torch.Tensor, mask: torch.Tensor, temperature: float = 1.0
) -> torch.Tensor:
    """
    KL(teacher || student) over the last dimension, averaged over the unmasked positions and
    scaled by T^2 (Hinton et al. 2015) so its gradients keep their size as T changes.

    student_logits, teacher_logits: (..., classes); mask: (...) of 0/1.
    Entries that both sides mask with a large negative score get probability 0 and add nothing.
    """
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    student_log_probs = (student_logits / temperature).log_softmax(-1)
    teacher_log_probs = (teacher_logits / temperature).log_softmax(-1)
    # (...)
    kl = (teacher_log_probs.exp() * (teacher_log_probs - student_log_probs)).sum(-1)
    mask = mask.to(kl.dtype)
    return (kl * mask).sum() / mask.sum().clamp(min=1) * temperature**2
