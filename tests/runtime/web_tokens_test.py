"""Hashtags, @-mentions and URLs whose ends spaCy cuts off are one word again; nothing else moves."""

import pytest

from green_nlp.runtime.parser_segmenter import TextSegmenter
from green_nlp.runtime.web_tokens import join_web_tokens, may_hold_web_tokens
from tests.conftest import ewt_texts


@pytest.mark.parametrize(
    "pairs, words",
    [
        ([("#", False), ("ThrowbackThursday", True), ("with", False)], ["#ThrowbackThursday", "with"]),
        ([("see", True), ("http://bit.ly/au121", False), ("g", True)], ["see", "http://bit.ly/au121g"]),
        ([("@hannahhhh", False), ("_", True), ("for", False)], ["@hannahhhh_", "for"]),
        ([("www.site.com/a1", False), ("g", False), (".", False)], ["www.site.com/a1g", "."]),
    ],
)
def test_the_cut_off_end_joins_its_word(pairs, words) -> None:
    joined = join_web_tokens(pairs)
    assert [text for text, _ in joined] == words
    assert "".join(t + " " * s for t, s in joined) == "".join(t + " " * s for t, s in pairs)


@pytest.mark.parametrize(
    "pairs",
    [
        [("ranked", True), ("#", False), ("1", True)],  # EWT writes `#1` as `#` + `1`
        [("C", False), ("#", True), ("code", False)],  # a `#` that does not open a chunk
        [("#", True), ("tag", False)],  # a space between
        [("@john", False), (",", True)],  # punctuation after a mention is its own word
        [("http://x.com", False), (")", False)],
        [("Hello", False), ("world", False)],
    ],
)
def test_other_tokens_stay_apart(pairs) -> None:
    assert join_web_tokens(pairs) == pairs


def test_the_segmenter_keeps_them_whole() -> None:
    words = TextSegmenter(split_sentences=False).segment("#ThrowbackThursday with @hannahhhh_ at http://bit.ly/au121g")
    assert words[0][1] == ["#ThrowbackThursday", "with", "@hannahhhh_", "at", "http://bit.ly/au121g"]
    assert not may_hold_web_tokens("nowebwords") and may_hold_web_tokens("see:WWW.x.com")


def test_ewt_test_text_is_split_as_before() -> None:
    """The shipped parser's test scores were measured before these joins: they change no word there
    (on EWT dev they join the two `#audiobooks`, which EWT writes as one word)."""
    texts = {split: ewt_texts(split) for split in ("test", "dev")}
    segmenter = TextSegmenter(split_sentences=False)
    changed = {split: [] for split in texts}
    for split, lines in texts.items():
        for line in lines:
            pairs = [(token.text, bool(token.whitespace_)) for token in segmenter._pipeline().make_doc(line)]
            if join_web_tokens(pairs) != pairs:
                changed[split].append([text for text, _ in join_web_tokens(pairs) if text not in dict(pairs)])
    assert changed == {"test": [], "dev": [["#audiobooks"], ["#audiobooks"]]}
