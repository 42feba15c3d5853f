"""Batched Viterbi against allennlp's per-sentence ConditionalRandomField.viterbi_tags."""

import pytest
import torch
from allennlp.modules import ConditionalRandomField
from allennlp.modules.conditional_random_field import allowed_transitions

from green_nlp.nn.viterbi import batched_viterbi_tags

BIOUL = {0: "O", 1: "B-PER", 2: "I-PER", 3: "L-PER", 4: "U-PER", 5: "B-LOC", 6: "I-LOC", 7: "L-LOC", 8: "U-LOC"}


def random_crf(constrained: bool, start_end: bool, seed: int) -> ConditionalRandomField:
    torch.manual_seed(seed)
    constraints = allowed_transitions("BIOUL", BIOUL) if constrained else None
    crf = ConditionalRandomField(len(BIOUL), constraints=constraints, include_start_end_transitions=start_end)
    with torch.no_grad():  # trained CRFs have far from uniform transitions
        for name, parameter in crf.named_parameters():
            if name != "_constraint_mask":  # a frozen parameter holding the allowed transitions
                parameter.normal_(0, 2)
    return crf


def prefix_mask(lengths, steps):
    return torch.arange(steps).unsqueeze(0) < torch.tensor(lengths).unsqueeze(1)


@pytest.mark.parametrize("constrained", [True, False])
@pytest.mark.parametrize("start_end", [True, False])
def test_same_paths_as_allennlp(constrained, start_end):
    for seed in range(20):
        crf = random_crf(constrained, start_end, seed)
        lengths = [1, 2, 7, 13, 13, 4]
        logits = torch.randn(len(lengths), 13, len(BIOUL)) * 3
        mask = prefix_mask(lengths, 13)

        expected = [path for path, _ in crf.viterbi_tags(logits, mask)]
        assert batched_viterbi_tags(crf, logits, mask) == expected


def test_constraints_hold_even_when_the_scores_pull_against_them():
    crf = random_crf(constrained=True, start_end=True, seed=0)
    logits = torch.full((1, 3, len(BIOUL)), -5.0)
    logits[0, :, 2] = 10.0  # I-PER everywhere: forbidden after start and before end
    path = batched_viterbi_tags(crf, logits, prefix_mask([3], 3))[0]
    tags = [BIOUL[t] for t in path]
    assert tags[0][0] in "BUO" and tags[-1][0] in "LUO"
    assert tags != ["I-PER"] * 3
