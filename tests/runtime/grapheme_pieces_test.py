"""The pieces of an emoji sequence that spaCy cuts apart are joined; every other cut stays."""

import pytest

from green_nlp.runtime.grapheme_pieces import join_grapheme_pieces, may_hold_pieces

ZWJ = "\u200d"
EMOJI_STYLE = "\ufe0f"


@pytest.mark.parametrize(
    "pairs, joined",
    [
        # spaCy's own tokens of "runs 🏃‍♂️." and of a family, a skin tone and a flag
        (
            [("🏃", False), (ZWJ, False), ("♂", False), (EMOJI_STYLE + ".", False)],
            ["🏃" + ZWJ + "♂" + EMOJI_STYLE, "."],
        ),
        ([("👨", False), (ZWJ, False), ("👩", False), (ZWJ, False), ("👧", True)], ["👨" + ZWJ + "👩" + ZWJ + "👧"]),
        ([("👍", False), ("🏽", True)], ["👍🏽"]),
        ([("🇺", False), ("🇸", False), ("🇫", False), ("🇷", True)], ["🇺🇸", "🇫🇷"]),
        ([("e", False), ("\u0301", True)], ["e\u0301"]),  # an accent written apart
    ],
)
def test_cluster_pieces_join_the_token_before(pairs, joined) -> None:
    result = join_grapheme_pieces(pairs)
    assert [text for text, _ in result] == joined
    assert "".join(text for text, _ in result) == "".join(text for text, _ in pairs)  # the same text
    assert result[-1][1] == pairs[-1][1]  # the last token keeps the whitespace after it


def test_other_cuts_and_spaced_tokens_stay() -> None:
    pairs = [("🦊", False), ("🐶", True), ("🏽", True), ("🇺", True), ("🇸", False), ("ok", False), (".", False)]
    # two emoji side by side are two words; a piece after whitespace has nothing to join
    assert join_grapheme_pieces(pairs) == pairs
    assert join_grapheme_pieces([(" ", False), (EMOJI_STYLE, False)]) == [(" ", False), (EMOJI_STYLE, False)]


def test_ascii_text_skips_the_pass() -> None:
    assert not may_hold_pieces("plaintext")
    assert may_hold_pieces("I❤" + EMOJI_STYLE)
