"""The UPOS head's loss, by hand: averaged over real words only, padding adds nothing."""

import math

import pytest
import torch
from allennlp.common import Params
from allennlp.data import Vocabulary
from allennlp.models import Model


def _upos_model() -> Model:
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["NOUN", "VERB"], "upos")  # ids 2, 3 after padding and OOV
    vocab.add_tokens_to_namespace(["root", "nsubj", "obj", "det"], "deprel_labels")
    params = Params(
        {
            "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 2}}},
            "encoder": {"type": "lstm", "input_size": 2, "hidden_size": 2, "bidirectional": True},
            "upos_embedding_dim": 0,
            "predict_upos": True,
            "arc_mlp_dim": 2,
            "label_mlp_dim": 2,
        }
    )
    model = Model.by_name("green_biaffine_parser").from_params(vocab=vocab, params=params)
    with torch.no_grad():
        model.label_scorer.weight.zero_()  # every label scores 0 at every head: label NLL ln 4
    return model


def test_upos_loss_by_hand_ignores_padding():
    """Sentence 1 has 3 words, sentence 2 has 2 and one padding position. Arc scores are 0 at every
    valid head (NLL ln 3 in sentence 1, ln 2 in sentence 2), labels uniform over 4 (ln 4). UPOS:
    uniform logits over 4 (ln 4) except sentence 2's first word, whose gold tag scores ln 3 against
    three zeros (p = 1/2, ln 2). The padding position's logits would cost about 6 nats if counted."""
    model = _upos_model()
    low = -1e4
    arc = torch.zeros(2, 4, 4)
    arc[:, torch.arange(4), torch.arange(4)] = low  # no self-loops
    arc[1, :, 3] = low  # no padding heads
    upos_logits = torch.zeros(2, 3, 4)
    upos_logits[1, 0, 3] = math.log(3.0)
    upos_logits[1, 2] = torch.tensor([-5.0, 5.0, 5.0, 5.0])  # padding, gold tag 0
    scores = {
        "arc_scores": arc,
        "label_dep": torch.zeros(2, 4, 2),
        "label_head": torch.zeros(2, 4, 2),
        "mask": torch.tensor([[True] * 4, [True, True, True, False]]),
        "upos_logits": upos_logits,
    }
    heads = torch.tensor([[2, 0, 2], [0, 1, 0]])
    tags = torch.tensor([[1, 0, 2], [0, 3, 0]])
    upos = torch.tensor([[2, 3, 2], [3, 2, 0]])
    without_upos = model.loss(scores, heads, tags)
    with_upos = model.loss(scores, heads, tags, upos=upos)
    ln2, ln3, ln4 = math.log(2.0), math.log(3.0), math.log(4.0)
    assert without_upos.item() == pytest.approx((3 * ln3 + 2 * ln2 + 5 * ln4) / 5, rel=1e-5)
    assert (with_upos - without_upos).item() == pytest.approx((4 * ln4 + ln2) / 5, rel=1e-5)
