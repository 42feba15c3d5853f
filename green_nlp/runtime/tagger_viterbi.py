"""Constrained CRF Viterbi decoding in numpy: the LD-Net tagger's paths without torch.

The same recursion as `green_nlp.nn.viterbi.batched_viterbi_tags` (the model's own decode, equal
to allennlp's `ConditionalRandomField.viterbi_tags`), in float32 like the model: forbidden
transitions score `impossible` (-10000, allennlp's value), padding positions keep their score and
point back to themselves, and ties go to the lowest tag index, as torch's `max` and numpy's
`argmax` both break them. Written here because no maintained numpy CRF decoder takes allennlp's
constraint mask and start/end scores as they are.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np


def constrained_scores(crf: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(tag -> tag, start -> tag, tag -> end) scores from the exported CRF, forbidden ones set to
    `impossible` with allennlp's arithmetic (`score * allowed + impossible * (1 - allowed)`)."""
    allowed = np.asarray(crf["allowed"], dtype=np.float32)
    impossible = np.float32(crf["impossible"])
    transitions = np.asarray(crf["transitions"], dtype=np.float32)
    tags = transitions.shape[0]
    start, end = tags, tags + 1
    if allowed.shape != (tags + 2, tags + 2):
        raise ValueError(f"CRF constraint mask of shape {allowed.shape} for {tags} tags")

    def constrain(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return scores * mask + impossible * (np.float32(1) - mask)

    if crf.get("start_transitions") is not None:
        to_first = constrain(np.asarray(crf["start_transitions"], dtype=np.float32), allowed[start, :tags])
        from_last = constrain(np.asarray(crf["end_transitions"], dtype=np.float32), allowed[:tags, end])
    else:
        to_first = impossible * (np.float32(1) - allowed[start, :tags])
        from_last = impossible * (np.float32(1) - allowed[:tags, end])
    return constrain(transitions, allowed[:tags, :tags]), to_first, from_last


def viterbi_paths(
    logits: np.ndarray, lengths: Sequence[int], transitions: np.ndarray, to_first: np.ndarray, from_last: np.ndarray
) -> list[list[int]]:
    """Best tag path of each row of `logits` (batch, words, tags), row b cut to `lengths[b]` words
    (at least 1; padding after them)."""
    logits = np.asarray(logits, dtype=np.float32)
    batch, steps, tags = logits.shape
    lengths_array = np.asarray(lengths, dtype=np.int64)
    rows = np.arange(batch)
    keep = np.broadcast_to(np.arange(tags), (batch, tags))
    score = to_first + logits[:, 0]
    backpointers = []
    for step in range(1, steps):
        candidates = score[:, :, None] + transitions  # (batch, previous tag, tag)
        previous = candidates.argmax(axis=1)
        best = np.take_along_axis(candidates, previous[:, None, :], axis=1)[:, 0]
        live = (step < lengths_array)[:, None]
        score = np.where(live, best + logits[:, step], score)
        backpointers.append(np.where(live, previous, keep))
    tag = (score + from_last).argmax(axis=1)
    path = [tag]
    for pointers in reversed(backpointers):
        tag = pointers[rows, tag]
        path.append(tag)
    paths = np.stack(path[::-1], axis=1).tolist() if batch else []
    return [row[:length] for row, length in zip(paths, lengths_array.tolist())]
