"""Tree decoding for the runtime, in numpy: the same decisions as `green_nlp.nn.tree_decoding`.

The parser keeps each word's highest-scoring head when those heads already form a single-rooted
tree and otherwise takes the exact maximum spanning tree (Chu-Liu/Edmonds from
`ufal.chu_liu_edmonds`, with ROOT arcs penalised so that exactly one word attaches to ROOT).
Scores are `scores[dep, head]` over positions 0..n, 0 being ROOT.
"""

from collections.abc import Sequence

import numpy as np
from ufal.chu_liu_edmonds import chu_liu_edmonds

# UD's relation for the word attached to ROOT, and only for it (the decoders keep to that rule)
ROOT_RELATION = "root"


def is_tree(heads: Sequence[int]) -> bool:
    """`heads[i]` is the head of word i+1 (0 = ROOT): one word on ROOT, heads in range, no cycle."""
    n = len(heads)
    if sum(head == 0 for head in heads) != 1 or any(not 0 <= head <= n for head in heads):
        return False
    reaches_root = [False] * (n + 1)
    reaches_root[0] = True
    for start in range(1, n + 1):
        path, node = set(), start
        while not reaches_root[node]:
            if node in path:
                return False
            path.add(node)
            node = heads[node - 1]
        for visited in path:
            reaches_root[visited] = True
    return True


def single_root_mst(scores: np.ndarray) -> list[int]:
    """Heads of words 1..n under the best single-rooted tree of one sentence's (n+1, n+1) scores.

    Every ROOT arc is lowered by more than the spread of all scores times n+1, so a second root
    always costs more than it could gain, and the ranking of single-rooted trees (which all pay
    the penalty once) is unchanged.
    """
    n = scores.shape[0] - 1
    if n == 1:
        return [0]
    weights = np.array(scores, dtype=np.float64)
    np.fill_diagonal(weights, np.nan)  # no self-loops
    weights[0, :] = np.nan  # ROOT has no head
    spread = float(np.nanmax(weights) - np.nanmin(weights))
    weights[:, 0] -= (spread + 1.0) * (n + 1)
    heads, _ = chu_liu_edmonds(weights)
    return [int(head) for head in heads[1:]]


def greedy_trees(arc_scores: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A batch's greedy heads (batch, p-1), each word's best over its whole padded row, and whether
    each sentence's form a tree (batch,), as `is_tree` says: one word on ROOT, every head within
    the sentence, no cycle. The batch at once in a few numpy calls: `is_tree` per sentence in Python
    was much of the decoding's time. Cycles are found by pointer jumping: after k rounds each
    word points 2^k steps up its path (ROOT points at itself), so a word reaches ROOT within n
    steps exactly when, after ceil(log2(p)) rounds, it points at ROOT."""
    greedy = arc_scores[:, 1:, :].argmax(-1)
    inside = np.arange(greedy.shape[1]) < lengths[:, None]
    one_root = ((greedy == 0) & inside).sum(axis=1) == 1
    in_range = ((greedy <= lengths[:, None]) | ~inside).all(axis=1)
    batch, positions = arc_scores.shape[0], arc_scores.shape[1]
    up = np.zeros((batch, positions), dtype=np.intp)  # each position's head; padding on ROOT
    up[:, 1:] = np.where(inside, greedy, 0)
    for _ in range(max(1, int(np.ceil(np.log2(positions))))):
        up = np.take_along_axis(up, up, axis=1)
    reaches_root = ((up[:, 1:] == 0) | ~inside).all(axis=1)
    return greedy, one_root & in_range & reaches_root


def decode_sentence(arc_scores: np.ndarray, length: int) -> np.ndarray:
    """Heads (length,) of one sentence from its padded (p, p) scores, p >= length + 1: the greedy
    heads over the whole padded row (as the model's argmax sees it) when they form a tree, else
    the maximum spanning tree over the sentence's own block; the runtime's decoding of a batch
    (`greedy_trees`) for one sentence."""
    greedy, trees = greedy_trees(arc_scores[None], np.array([length]))
    if trees[0]:
        return greedy[0, :length]
    return np.asarray(single_root_mst(arc_scores[: length + 1, : length + 1]), dtype=greedy.dtype)
