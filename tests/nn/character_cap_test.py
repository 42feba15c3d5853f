"""The torch models read the characters the ONNX runtime reads: a word's first 512."""

import torch

from green_nlp.nn.character_cap import capped_characters
from green_nlp.runtime.parser_inputs import MAX_WORD_CHARACTERS


def test_the_character_ids_are_cut_to_the_runtimes_cap():
    words = {
        "tokens": {"tokens": torch.ones(2, 3, dtype=torch.long)},
        "token_characters": {"token_characters": torch.ones(2, 3, MAX_WORD_CHARACTERS + 7, dtype=torch.long)},
    }
    capped = capped_characters(words)
    assert capped["token_characters"]["token_characters"].shape == (2, 3, MAX_WORD_CHARACTERS)
    assert capped["tokens"]["tokens"] is words["tokens"]["tokens"]
    short = {"token_characters": {"token_characters": torch.ones(2, 3, 9, dtype=torch.long)}}
    assert capped_characters(short)["token_characters"]["token_characters"].shape == (2, 3, 9)
