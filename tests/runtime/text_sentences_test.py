"""`split_sentences`: where the classifier's `--split-sentences` cuts a long text."""

import pytest

from green_nlp.runtime.text_sentences import split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("One film. Two hours!  Three stars?", ["One film.", "Two hours!", "Three stars?"]),
        ('He said "no." Then he left.', ['He said "no."', "Then he left."]),
        ("It ends (badly.) Sadly\u2026 really?! yes", ["It ends (badly.)", "Sadly\u2026 really?!", "yes"]),
        ("version 2.5 is out", ["version 2.5 is out"]),  # no whitespace after the mark: no cut
        ("no end mark at all", ["no end mark at all"]),
        ("  padded.  ", ["padded."]),
        ("...", ["..."]),
        ("   ", ["   "]),  # nothing to cut: the text itself
    ],
)
def test_sentences_are_cut_after_end_marks_and_their_closers(text, sentences):
    assert split_sentences(text) == sentences


def test_no_character_but_whitespace_is_lost():
    text = "A great film.\tTruly!\n(Not really.) The end"
    assert "".join("".join(split_sentences(text)).split()) == "".join(text.split())
