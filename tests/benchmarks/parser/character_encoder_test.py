"""`benchmarks.parser.character_encoder`: the padding count and the bit comparison it reports."""

import pytest

from benchmarks.common import git_bytes
from benchmarks.parser.character_encoder import BEFORE, ENCODER, PARSER, padding, same_bits
from green_nlp.runtime import create_session, load


def test_padding_counts_each_batch_new_words_once_at_their_calls_width():
    batches = [[["a", "cat"], ["encyclopaedia"]], [["cat", "dogs"]]]
    found = padding(batches, min_width=4)
    # batch 1: a, cat, encyclopaedia (one call: 3 x 13; runs: a and cat at 4, encyclopaedia at 13); batch 2: dogs
    assert found["new_words"] == 4 and found["mean_length"] == pytest.approx((1 + 3 + 13 + 4) / 4)
    assert found["mean_width_one_call"] == pytest.approx((3 * 13 + 4) / 4)
    assert found["mean_width_runs"] == pytest.approx((4 + 4 + 13 + 4) / 4)


def test_the_shipped_encoder_gives_the_earlier_encoders_bits(tmp_path):
    """The comparison finds no differing word between the Conv encoder and the shipped MatMul one,
    and finds every word when the 'before' graph is another model's."""
    nlp = load(PARSER, precision="int8", threads=1)
    path = tmp_path / ENCODER
    path.write_bytes(git_bytes("show", f"{BEFORE}:pretrained/en-ewt-parser/{ENCODER}"))
    words = ["the", "a", "cat", "extraordinarily-long-word", "x" * 60, "ＦＵＬＬ", "don't", "3.14"]
    before = create_session(path, 1)
    assert same_bits(nlp, before, words) == {"length-sorted": 0, "shuffled": 0}

    class Off:  # the same graph, its answers nudged: every word must count
        def run(self, names, feed):
            return [before.run(names, feed)[0] + 1e-3]

    assert same_bits(nlp, Off(), words) == {"length-sorted": len(words), "shuffled": len(words)}
