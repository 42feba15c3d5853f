"""Characters that show nothing are never a word nor a word's end; CoNLL-U keeps them in SpacesAfter."""

import pytest

from green_nlp.runtime.conllu_output import gaps_after
from green_nlp.runtime.invisible_characters import is_gap, may_hold_invisible, strip_invisible
from green_nlp.runtime.parser_segmenter import TextSegmenter

ZERO_WIDTH_SPACE, SOFT_HYPHEN = "\u200b", "\u00ad"


@pytest.mark.parametrize(
    "text, words",
    [
        (f"A{ZERO_WIDTH_SPACE} {ZERO_WIDTH_SPACE}Be.", ["A", "Be", "."]),
        (f"Hello{ZERO_WIDTH_SPACE} world", ["Hello", "world"]),
        ("a dash \x96 read as Latin-1", ["a", "dash", "read", "as", "Latin-1"]),
        ("x \ufeff y", ["x", "y"]),
        (f"co{SOFT_HYPHEN}operate now", [f"co{SOFT_HYPHEN}operate", "now"]),  # inside a word it stays
        ("runs 🏃\u200d♂\ufe0f.", ["runs", "🏃\u200d♂\ufe0f", "."]),  # an emoji's joiner is part of it
    ],
)
def test_invisible_characters_make_no_word(text: str, words: list[str]) -> None:
    found = TextSegmenter(split_sentences=False).segment(text)[0][1]
    assert found == words
    gaps = gaps_after(text, found)  # the words still spell the text, the characters in the gaps
    assert gaps is not None and "".join(w + g for w, g in zip(found, gaps)).rstrip(" ") == text


def test_a_text_of_them_alone_has_no_words() -> None:
    assert TextSegmenter(split_sentences=False).segment(ZERO_WIDTH_SPACE) == []


def test_the_cheap_test_and_the_gap_characters() -> None:
    assert not may_hold_invisible("plainASCII")
    assert may_hold_invisible("A" + ZERO_WIDTH_SPACE) and may_hold_invisible("\x07")
    assert is_gap(" ") and is_gap(ZERO_WIDTH_SPACE) and is_gap("\x96") and not is_gap("a") and not is_gap("\ufe0f")
    assert strip_invisible([(ZERO_WIDTH_SPACE, True), ("\u200eHi\u200f", False)]) == [(" ", True), ("Hi", False)]
