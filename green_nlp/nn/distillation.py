"""Knowledge-distillation losses (pure functions, shared by every green_nlp student).

The temperature is taken as given (positive): a `Distiller` checks it once, when it is set.
"""

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
    student_log_probs = (student_logits / temperature).log_softmax(-1)
    teacher_log_probs = (teacher_logits / temperature).log_softmax(-1)
    # (...)
    kl = (teacher_log_probs.exp() * (teacher_log_probs - student_log_probs)).sum(-1)
    mask = mask.to(kl.dtype)
    return (kl * mask).sum() / mask.sum().clamp(min=1) * temperature**2


def sharpened(probs: torch.Tensor, temperature: float = 1.0) -> torch.Tensor:
    """A stored (possibly cut) distribution renormalised over its entries at temperature T:
    p_i^(1/T) / sum_j p_j^(1/T). Entries of probability 0 (padding, or cut off) stay 0; a row of
    zeros stays zeros."""
    powered = probs.clamp(min=0) ** (1.0 / temperature) if temperature != 1.0 else probs.clamp(min=0)
    return powered / powered.sum(-1, keepdim=True).clamp(min=1e-12)


def sparse_kl_divergence(
    student_logits: torch.Tensor, target_index: torch.Tensor, target_probs: torch.Tensor, temperature: float = 1.0
) -> torch.Tensor:
    """
    KL(p || q_T) per position, scaled by T^2, for a teacher distribution stored as its top-k
    entries: p = `sharpened(target_probs, T)` on classes `target_index` (the cut-off mass is
    dropped and the k entries renormalised), q_T = softmax(student_logits / T) over all classes.

    student_logits: (..., classes); target_index, target_probs: (..., k), probability 0 marking
    padding. Returns (...): sum_i p_i (log p_i - log q_T[index_i]); a position with no target is 0.
    """
    p = sharpened(target_probs.to(student_logits.dtype), temperature)
    log_q = (student_logits / temperature).log_softmax(-1).gather(-1, target_index)
    terms = torch.where(p > 0, p * (p.clamp(min=1e-12).log() - log_q), torch.zeros_like(p))
    return terms.sum(-1) * temperature**2
