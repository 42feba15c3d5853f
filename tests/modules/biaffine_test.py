import torch

from green_nlp.modules.biaffine import Biaffine


def test_pair_scores_equal_the_matching_entries_of_all_pair_scores():
    torch.manual_seed(0)
    scorer = Biaffine(4, 3, num_outputs=5)
    torch.nn.init.normal_(scorer.weight)
    x, y = torch.randn(2, 6, 4), torch.randn(2, 6, 3)
    all_pairs = scorer(x, y)  # (batch, outputs, n_x, n_y)
    assert all_pairs.shape == (2, 5, 6, 6)
    heads = torch.randint(0, 6, (2, 6))
    chosen = scorer.score_pairs(x, y.gather(1, heads.unsqueeze(-1).expand(-1, -1, 3)))
    expected = all_pairs.permute(0, 2, 3, 1).gather(2, heads[:, :, None, None].expand(-1, -1, 1, 5)).squeeze(2)
    assert torch.allclose(chosen, expected, atol=1e-5)


def test_bias_terms_are_part_of_the_weight():
    scorer = Biaffine(2, 2, num_outputs=1, bias_x=True, bias_y=False)
    assert scorer.weight.shape == (1, 3, 2)
