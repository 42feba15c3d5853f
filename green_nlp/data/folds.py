"""Cross-fitting folds for teachers that must not have seen the sentences they give targets for."""

import hashlib
from collections.abc import Sequence
from typing import Optional

from allennlp.common.checks import ConfigurationError


def sentence_fold(words: Sequence[str], fold_count: int) -> int:
    """
    The fold (0 .. fold_count - 1) a sentence belongs to, from a hash of its words.

    A hash rather than the sentence's position in its file: the reader of a fold teacher and the
    distiller of a student then agree on folds without sharing an index, and a sentence that
    occurs twice in a corpus lands in one fold, so no teacher gives targets for a copy it saw.
    """
    if fold_count < 1:
        raise ConfigurationError(f"fold count must be at least 1, got {fold_count}")
    digest = hashlib.blake2b("\u241f".join(words).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % fold_count


def check_fold_settings(cross_fit_folds: Optional[int], leave_out_fold: Optional[int]) -> None:
    """Both settings or neither, and a fold that exists."""
    if cross_fit_folds is None and leave_out_fold is None:
        return
    if cross_fit_folds is None or leave_out_fold is None:
        raise ConfigurationError(
            "set cross_fit_folds and leave_out_fold together (got "
            f"cross_fit_folds={cross_fit_folds}, leave_out_fold={leave_out_fold})"
        )
    if cross_fit_folds < 2:
        raise ConfigurationError(f"cross_fit_folds must be at least 2, got {cross_fit_folds}")
    if not 0 <= leave_out_fold < cross_fit_folds:
        raise ConfigurationError(f"leave_out_fold must be in 0..{cross_fit_folds - 1}, got {leave_out_fold}")
