"""HTML line breaks in raw text: never words; sentence ends when splitting, spaces otherwise."""

import pytest

from green_nlp.runtime.parser_segmenter import TextSegmenter

REVIEW = "Great film.<br /><br />I loved it<BR>really did<br/ >"


def test_line_breaks_end_sentences_when_splitting() -> None:
    sentences = TextSegmenter().segment(REVIEW)
    assert sentences == [
        ("Great film.", ["Great", "film", "."]),
        ("I loved it", ["I", "loved", "it"]),
        ("really did", ["really", "did"]),
    ]


def test_line_breaks_are_spaces_in_one_sentence_mode() -> None:
    [(text, words)] = TextSegmenter(split_sentences=False).segment(REVIEW)
    assert words == ["Great", "film", ".", "I", "loved", "it", "really", "did"]
    assert "<" not in text and text.startswith("Great film.") and text.endswith("really did")


@pytest.mark.parametrize("text", ["<br />", "<br><BR/>  <br >"])
def test_a_text_of_only_line_breaks_has_no_sentence(text: str) -> None:
    assert TextSegmenter().segment(text) == []
    assert TextSegmenter(split_sentences=False).segment(text) == []


def test_other_markup_and_angle_brackets_are_left_to_the_tokenizer() -> None:
    # only line breaks are read: `<b>` and a comparison stay as spaCy tokenizes them
    [(_, words)] = TextSegmenter(split_sentences=False).segment("a <b> 3<4 broken")
    assert "broken" in words and "".join(words) == "a<b>3<4broken"


def test_an_opening_quote_or_bracket_starts_the_sentence_it_opens() -> None:
    sentences = TextSegmenter().segment('"Yes," he said. "No." (Really.) Fine.')
    assert [text for text, _ in sentences] == ['"Yes," he said.', '"No."', "(Really.)", "Fine."]
    assert sentences[1][1][0] == '"' and sentences[2][1][0] == "("


def test_a_closing_quote_stays_with_the_sentence_it_closes() -> None:
    sentences = TextSegmenter().segment('He said "stop." Then he left.')
    assert [text for text, _ in sentences] == ['He said "stop."', "Then he left."]


def test_a_sentence_knows_whether_whitespace_followed_it() -> None:
    line = 'I lost.Well, "fine." Then'
    sentences = TextSegmenter().segment(line)
    assert [(text, text.space_after) for text, _ in sentences] == [  # type: ignore[attr-defined]
        ("I lost.", False),
        ('Well, "fine."', True),
        ("Then", True),
    ]
    rebuilt = "".join(text + (" " if text.space_after else "") for text, _ in sentences)  # type: ignore[attr-defined]
    assert rebuilt.strip() == line


@pytest.mark.parametrize("gap, followed", [("\u0085 ", True), ("  ", True), ("\u0085", True)])
def test_whitespace_tokens_between_sentences_count_as_space(gap: str, followed: bool) -> None:
    [(first, _), (second, _)] = TextSegmenter().segment(f"It was great!{gap}But long.")
    assert first == "It was great!" and second == "But long."
    assert first.space_after is followed  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text, words",
    [
        ("I'M SURE YOU'RE RIGHT", ["I", "'M", "SURE", "YOU", "'RE", "RIGHT"]),
        ("WE CAN'T", ["WE", "CA", "N'T"]),
        ("I’M here", ["I", "’M", "here"]),
        ("O'NEIL and ROCK'N'ROLL stay", ["O'NEIL", "and", "ROCK'N'ROLL", "stay"]),
        ("I'm fine", ["I", "'m", "fine"]),
        # after punctuation with no space spaCy left these whole; a piece it cut off stays as it is
        ("ok...we'll see", ["ok", "...", "we", "'ll", "see"]),
        ("okay..won't crave it", ["okay", "..", "wo", "n't", "crave", "it"]),
        ("boy--who'd know", ["boy", "--", "who", "'d", "know"]),
    ],
)
def test_a_contraction_in_capitals_is_cut_as_in_lower_case(text: str, words: list[str]) -> None:
    [(_, got)] = TextSegmenter(split_sentences=False).segment(text)
    assert got == words


@pytest.mark.parametrize(
    "text, several",
    [
        ("I came. I saw. I conquered.", True),
        ('He said "stop." Then he left.', True),  # a closing quote after the mark
        ("Great film.<br />I loved it", True),  # a line break ends a sentence when splitting
        ("Mr. Smith went home.", False),  # a mark and a space, but spaCy keeps `Mr.` one word: no cut
        ("It costs 3.5 dollars.", False),  # no space after the inner mark: the sentencizer never runs
        ("What?   ", False),  # the mark ends the text
        ("Hello world", False),
    ],
)
def test_a_text_holding_several_sentences_is_told_from_one(text: str, several: bool) -> None:
    for segmenter in (TextSegmenter(), TextSegmenter(split_sentences=False)):  # the same answer in either mode
        assert segmenter.holds_several_sentences(text) is several
        assert (len(TextSegmenter().segment(text)) > 1) is several  # what splitting it gives


@pytest.mark.parametrize("split", [True, False])
def test_a_text_longer_than_spacy_takes_is_refused_by_name(split: bool) -> None:
    from green_nlp.runtime.errors import InputError

    segmenter = TextSegmenter(split_sentences=split)
    segmenter._pipeline().max_length = 40  # spaCy's own limit is 1,000,000 characters
    assert segmenter.segment("A cat sat. " * 3)  # 33 characters
    with pytest.raises(InputError, match=r"^text has 44 characters, over the 40 spaCy's tokenizer takes in one text"):
        segmenter.segment("A cat sat. " * 4)


@pytest.mark.parametrize("mark", ["»", "”", "」"])
def test_a_closing_mark_after_the_end_stays_with_its_sentence(mark: str) -> None:
    # the sentencizer keeps a punctuation token after the end mark in the sentence (spaCy's is_punct,
    # one of the two lexical attributes the segmenter's vocabulary still computes)
    sentences = TextSegmenter().segment(f"He said «Stop!{mark} Then he left.")
    assert [text for text, _ in sentences] == [f"He said «Stop!{mark}", "Then he left."]


def test_new_words_get_only_the_lexical_attributes_the_segmenter_reads() -> None:
    segmenter = TextSegmenter()
    segmenter.segment("Zyxwvut , qwertyuiop 42")
    vocab = segmenter._pipeline().vocab
    assert vocab[","].is_punct and not vocab["Zyxwvut"].is_punct
    # the others (shape, number-likeness, ...) are not computed: half the tokenizer's time on new words
    assert vocab["Zyxwvut"].shape_ == "" and not vocab["42"].like_num


def test_emoji_sequences_stay_one_word() -> None:
    # spaCy alone: 'runs', 'away', '🏃', a lone zero-width joiner, '♂', a selector glued to '.'
    words = TextSegmenter(split_sentences=False).segment("runs away 🏃\u200d♂\ufe0f. I \u2764\ufe0f NY 👍🏽")[0][1]
    assert words == ["runs", "away", "🏃\u200d♂\ufe0f", ".", "I", "\u2764\ufe0f", "NY", "👍🏽"]


@pytest.mark.parametrize("split", [False, True])
def test_a_long_punctuation_run_is_one_word(split: bool) -> None:
    # spaCy alone: 5,000 words, each `=` cut off after a search of what is left (quadratic time)
    sentences = TextSegmenter(split_sentences=split).segment("See below. " + "=" * 5000 + " Done")
    assert [word for _, words in sentences for word in words] == ["See", "below", ".", "=" * 5000, "Done"]
