"""Decoding dependency trees from arc scores: greedy first, maximum spanning tree where needed.

Pure functions, no registration. Scores follow the parser's layout: `scores[dep, head]` over
positions 0..n, where position 0 is the artificial ROOT.
"""

from typing import Optional

import numpy as np
import torch

from green_nlp.runtime.parser_decoding import is_tree, single_root_mst

# One implementation for training, the AllenNLP predictor and the torch-free runtime.
is_well_formed_tree = is_tree
decode_mst = single_root_mst


def decode_heads(arc_scores: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """
    Heads for a batch: greedy argmax, then MST only for sentences whose greedy heads are not a
    well-formed tree (a trained parser's greedy output usually is, so MST rarely runs).

    arc_scores: (batch, n+1, n+1) scores[b, dep, head], already masked for padding.
    lengths: (batch,) number of words (ROOT excluded).
    Returns (batch, n+1) heads with position 0 (ROOT) and padding set to 0.
    """
    # (batch, n+1)
    greedy = arc_scores.argmax(dim=-1)
    greedy_cpu = greedy.cpu().numpy()
    lengths_list = lengths.tolist()
    heads = np.zeros_like(greedy_cpu)
    needs_mst = []
    for b, length in enumerate(lengths_list):
        candidate = greedy_cpu[b, 1 : length + 1]
        if is_well_formed_tree(candidate.tolist()):
            heads[b, 1 : length + 1] = candidate
        else:
            needs_mst.append(b)
    if needs_mst:
        scores_cpu = arc_scores.detach().float().cpu().numpy()
        for b in needs_mst:
            length = lengths_list[b]
            heads[b, 1 : length + 1] = decode_mst(scores_cpu[b, : length + 1, : length + 1])
    return torch.from_numpy(heads).to(arc_scores.device)


def root_consistent_labels(label_scores: torch.Tensor, heads: torch.Tensor, root_label: Optional[int]) -> torch.Tensor:
    """Best labels (batch, n+1) at `heads` under UD's rule that a word takes `root` exactly when
    its head is 0. A plain argmax breaks it in an undertrained model (a root word labelled
    `punct`, inner words labelled `root`), which makes invalid CoNLL-U; a trained one rarely
    differs. `root_label` None (no such label): the plain argmax."""
    if root_label is None:
        return label_scores.argmax(-1)
    attached_to_root = heads == 0
    masked = label_scores.clone()
    masked[..., root_label] = float("-inf")
    labels = masked.argmax(-1)
    return torch.where(attached_to_root, torch.full_like(labels, root_label), labels)
