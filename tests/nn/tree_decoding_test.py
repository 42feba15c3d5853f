import itertools

import numpy as np
import pytest
import torch

from green_nlp.nn.tree_decoding import decode_heads, decode_mst, is_well_formed_tree


def brute_force_best_tree(scores: np.ndarray):
    """Enumerate every head assignment and keep the best single-rooted, acyclic one."""
    n = scores.shape[0] - 1
    best, best_heads = -np.inf, None
    choices = [[h for h in range(n + 1) if h != dep] for dep in range(1, n + 1)]
    for heads in itertools.product(*choices):
        if is_well_formed_tree(list(heads)):
            total = sum(scores[dep, head] for dep, head in enumerate(heads, start=1))
            if total > best:
                best, best_heads = total, list(heads)
    return best, best_heads


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_mst_matches_brute_force_oracle(n):
    rng = np.random.default_rng(n)
    for _ in range(40):
        scores = rng.normal(size=(n + 1, n + 1))
        # Make several roots attractive so the single-root constraint matters.
        scores[:, 0] += rng.uniform(0, 2)
        best, oracle_heads = brute_force_best_tree(scores)
        heads = decode_mst(scores)
        assert is_well_formed_tree(heads)
        assert sum(scores[d, h] for d, h in enumerate(heads, start=1)) == pytest.approx(best)
        assert heads == oracle_heads


def test_well_formed_tree_checks():
    assert is_well_formed_tree([0])
    assert is_well_formed_tree([2, 0, 2])
    assert not is_well_formed_tree([0, 0])  # two roots
    assert not is_well_formed_tree([2, 1])  # cycle, no root
    assert not is_well_formed_tree([0, 3, 2])  # root plus a detached cycle
    assert not is_well_formed_tree([2, 2])  # self loop


def test_decode_heads_keeps_greedy_trees_and_repairs_the_rest():
    # Sentence 0: greedy is already a tree (2 <- 0, 1 <- 2). Sentence 1 (length 2 + padding):
    # greedy gives two roots and must be repaired.
    scores = torch.full((2, 4, 4), -10.0)
    scores[0, 1, 2] = 5.0
    scores[0, 2, 0] = 5.0
    scores[0, 3, 2] = 5.0
    scores[1, 1, 0] = 5.0
    scores[1, 2, 0] = 4.0
    scores[1, 2, 1] = 3.0
    heads = decode_heads(scores, torch.tensor([3, 2]))
    assert heads[0].tolist() == [0, 2, 0, 2]
    assert heads[1].tolist() == [0, 0, 1, 0]


def test_root_consistent_labels_give_root_to_roots_child_only():
    from green_nlp.nn.tree_decoding import root_consistent_labels

    # label 0 = root scores best for every word; label 2 is the runner-up
    scores = torch.tensor([[[0.0, 0.0, 0.0], [5.0, 1.0, 2.0], [5.0, 1.0, 2.0], [5.0, 3.0, 2.0]]])
    heads = torch.tensor([[0, 2, 0, 2]])
    assert root_consistent_labels(scores, heads, root_label=0).tolist() == [[0, 2, 0, 1]]
    assert root_consistent_labels(scores, heads, root_label=None).tolist() == [[0, 0, 0, 0]]
