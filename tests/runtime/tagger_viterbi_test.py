"""`green_nlp.runtime.tagger_viterbi` decodes the paths the model's CRF decodes."""

import numpy as np
import pytest
import torch
from allennlp.modules import ConditionalRandomField
from allennlp.modules.conditional_random_field import allowed_transitions

from green_nlp.nn.viterbi import batched_viterbi_tags
from green_nlp.runtime.tagger_viterbi import constrained_scores, viterbi_paths

LABELS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "E-LOC", "S-LOC"]


def _crf(include_start_end: bool, seed: int) -> ConditionalRandomField:
    torch.manual_seed(seed)
    bioul = {i: {"S": "U", "E": "L"}.get(tag[0], tag[0]) + tag[1:] for i, tag in enumerate(LABELS)}
    crf = ConditionalRandomField(
        len(LABELS), constraints=allowed_transitions("BIOUL", bioul), include_start_end_transitions=include_start_end
    )
    with torch.no_grad():  # random scores, start/end too (allennlp initialises them to zeros)
        for name in ("transitions", "start_transitions", "end_transitions"):
            if hasattr(crf, name):
                getattr(crf, name).normal_()
    return crf


def _exported(crf: ConditionalRandomField) -> dict:
    with_ends = crf.include_start_end_transitions
    return {
        "transitions": crf.transitions.detach().tolist(),
        "start_transitions": crf.start_transitions.detach().tolist() if with_ends else None,
        "end_transitions": crf.end_transitions.detach().tolist() if with_ends else None,
        "allowed": crf._constraint_mask.detach().long().tolist(),
        "impossible": -10000.0,
    }


@pytest.mark.parametrize("include_start_end", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_paths_equal_allennlps_viterbi_tags_and_the_models_batched_decode(include_start_end, seed):
    crf = _crf(include_start_end, seed)
    generator = torch.Generator().manual_seed(100 + seed)
    lengths = [1, 2, 7, 12, 12, 5]
    logits = torch.randn(len(lengths), max(lengths), len(LABELS), generator=generator) * 3
    mask = torch.arange(max(lengths)).unsqueeze(0) < torch.tensor(lengths).unsqueeze(1)
    expected = [path for path, _ in crf.viterbi_tags(logits, mask)]
    assert batched_viterbi_tags(crf, logits, mask) == expected
    got = viterbi_paths(logits.numpy(), lengths, *constrained_scores(_exported(crf)))
    assert got == expected
    assert len({tuple(path) for path in got}) > 3  # not one trivial path everywhere


def test_forbidden_transitions_are_never_taken_even_when_the_scores_want_them():
    crf = _crf(True, 0)
    b_per, s_loc, e_per = LABELS.index("B-PER"), LABELS.index("S-LOC"), LABELS.index("E-PER")
    logits = np.full((1, 2, len(LABELS)), -5.0, dtype=np.float32)
    logits[0, 0, b_per] = 50.0  # B-PER then S-LOC scores best, but B- must be followed by I-/E- of its type
    logits[0, 1, s_loc] = 50.0
    (path,) = viterbi_paths(logits, [2], *constrained_scores(_exported(crf)))
    assert path == [b_per, e_per] or path[0] != b_per
    assert [LABELS[t] for t in path] != ["B-PER", "S-LOC"]


def test_a_constraint_mask_of_the_wrong_size_is_refused():
    crf = _exported(_crf(True, 0))
    crf["allowed"] = [row[:-1] for row in crf["allowed"][:-1]]
    with pytest.raises(ValueError, match="constraint mask"):
        constrained_scores(crf)
