"""`lemma_choice`: the best script's lemma unless it is no word and a next-best script's is."""

import pytest

from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.lemma_choice import AttestedWords, from_folder
from green_nlp.runtime.lemma_rules import make_rule

WORDS = AttestedWords(["star", "Condemn", "quality", "be", "run"])
STRIP_ING_ADD_E = make_rule("making", "make")  # starring -> starre
STRIP_RING = make_rule("running", "run")  # starring -> star
STRIP_ED = make_rule("walked", "walk")
WAS_BE = make_rule("was", "be")  # a whole-lemma script


def test_a_non_word_gives_way_to_the_next_script_that_makes_a_word():
    assert WORDS.choose("starring", "starre", [(STRIP_ING_ADD_E, 0.6), (STRIP_RING, 0.3)]) == "star"
    assert WORDS.choose("condemned", "condemne", [(STRIP_ED, 0.2)]) == "condemn"  # case-blind lookup


def test_a_word_or_the_form_itself_stands():
    assert WORDS.choose("running", "run", [(STRIP_RING, 0.9), (STRIP_ING_ADD_E, 0.1)]) == "run"
    assert WORDS.choose("Graae", "Graae", [(STRIP_ED, 0.9)]) == "Graae"  # an unseen name


@pytest.mark.parametrize(
    "alternatives, why",
    [
        ([(STRIP_ING_ADD_E, 0.0), (STRIP_RING, -5.0)], "under MIN_RATIO of the best"),
        ([(WAS_BE, 0.5)], "a whole-lemma script is for irregular words"),
        ([(STRIP_ED, 0.5)], "no alternative makes a word"),
        ([], "no alternatives"),
    ],
)
def test_without_a_usable_alternative_the_best_lemma_stays(alternatives, why):
    assert WORDS.choose("starring", "starre", alternatives) == "starre", why


def test_only_the_first_top_k_alternatives_are_tried():
    alternatives = [(STRIP_ED, 0.5)] * 5 + [(STRIP_RING, 0.3)]
    assert WORDS.choose("starring", "starre", alternatives) == "starre"
    assert WORDS.choose("starring", "starre", alternatives, top_k=6) == "star"


def test_from_sources_counts_words_of_running_text():
    texts = ["Don't stop the x-ray, stop it!", "STOP. 42 x-rays <br />", "don't"]
    words = AttestedWords.from_sources(["Walked", "walk"], texts, min_count=2)
    assert words.words == {"walked", "walk", "don't", "stop"}


def test_counting_lower_case_occurrences_only_leaves_names_out():
    texts = ["Ringo Starr sang.", "Starr and STARR", "a star, the star"]
    assert "starr" in AttestedWords.from_sources([], texts, min_count=2).words
    words = AttestedWords.from_sources([], texts, min_count=2, lower_case_only=True)
    assert words.words == {"star"}


def test_the_list_round_trips_and_a_broken_one_is_refused(tmp_path):
    path = tmp_path / "attested_words.txt"
    WORDS.write(path)
    assert AttestedWords.read(path).words == WORDS.words
    path.write_text("star\n\nrun\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2 is not one word"):
        AttestedWords.read(path)
    meta = {"attested_words": {"file": "attested_words.txt"}}
    with pytest.raises(ModelFolderError, match="attested word list unreadable"):
        from_folder(tmp_path, meta)
    assert from_folder(tmp_path, {}) is None
    with pytest.raises(ModelFolderError, match="must be an object with a 'file'"):
        from_folder(tmp_path, {"attested_words": "attested_words.txt"})


def test_an_underscore_lemma_becomes_the_form_where_no_script_helps():
    whole_underscore = make_rule("Rice@ENRON", "_")
    assert WORDS.choose("Penycate", "_", [(whole_underscore, 0.7), (STRIP_ED, 0.2)]) == "Penycate"
    assert WORDS.choose("_", "_", []) == "_"


def test_an_underscore_in_the_word_list_does_not_settle_a_word() -> None:
    # the shipped list holds `_` (EWT's lemma column has it): `bee` and `molybdenum` kept `_` as their lemma
    with_underscore = AttestedWords(["_", "bee", "star"])
    whole_underscore = make_rule("Rice@ENRON", "_")
    assert with_underscore.choose("bee", "_", [(whole_underscore, 0.9)]) == "bee"
    assert with_underscore.choose("Edison@ENRON", "_", [(whole_underscore, 0.9)]) == "_"  # as EWT writes it
    assert not with_underscore.settled("molybdenum", "_") and with_underscore.settled("_", "_")
