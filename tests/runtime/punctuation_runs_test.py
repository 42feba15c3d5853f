"""Long punctuation is cut out before spaCy's tokenizer, which is quadratic in it; other text is
tokenized exactly as spaCy does."""

import pytest
import spacy

from green_nlp.runtime.punctuation_runs import LONG_PUNCTUATION, LONG_RUN, LONG_STRETCH, tokenize


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


class Recording:
    """spaCy's blank English, recording every text its tokenizer is given."""

    def __init__(self, nlp) -> None:
        self.nlp, self.vocab, self.seen = nlp, nlp.vocab, []

    def make_doc(self, text):
        self.seen.append(text)
        return self.nlp.make_doc(text)


@pytest.mark.parametrize(
    "text, words",
    [
        ("=" * 10_000, ["=" * 10_000]),
        ("a " + "=" * 100 + " b", ["a", "=" * 100, "b"]),
        ("x" + "+" * 70 + "yes.", ["x", "+" * 70, "yes", "."]),
        ("fill in: " + "_" * 80 + "\there", ["fill", "in", ":", "_" * 80, "\t", "here"]),
        ("(" * 3000 + "a" + ")" * 3000, ["(" * 3000, "a", ")" * 3000]),
        ("=!" * (LONG_STRETCH // 2), ["=", "!"] * (LONG_STRETCH // 2)),  # mixed: one token a run of one character
        ("  " + "!" * 80 + "  end  ", ["  ", "!" * 80, " ", "end", " "]),
    ],
)
def test_long_punctuation_never_reaches_the_tokenizer(nlp, text, words) -> None:
    recording = Recording(nlp)
    doc = tokenize(recording, text)
    assert doc.text == text  # the same text, spaces included
    assert [token.text for token in doc] == words
    assert not any(LONG_PUNCTUATION.search(seen) for seen in recording.seen)


@pytest.mark.parametrize(
    "text",
    [
        "Ordinary text, with 4.2(b) and e-mail at a@b.com!!",
        "=" * (LONG_RUN - 1) + " just under the run length",
        "?!" * (LONG_STRETCH // 2 - 1) + " just under the stretch length",
        "https://example.com/" + "a/" * 100 + "?q=1&r=2",  # a long URL keeps spaCy's own rules
    ],
)
def test_other_text_is_tokenized_as_spacy_does(nlp, text) -> None:
    assert [(t.text, t.whitespace_) for t in tokenize(nlp, text)] == [
        (t.text, t.whitespace_) for t in nlp.make_doc(text)
    ]
