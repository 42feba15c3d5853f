"""Lemma edit scripts: made from (form, lemma), applied to forms, round trip on real EWT words."""

import conllu
import pytest

from green_nlp.runtime.lemma_rules import apply_rule, make_rule, predicted_lemma
from tests.conftest import require_data


@pytest.mark.parametrize(
    "form, lemma",
    [
        ("walked", "walk"),
        ("The", "the"),
        ("Apple", "Apple"),
        ("NASA", "NASA"),
        ("was", "be"),
        ("unhappier", "unhappy"),
        ("iPhones", "iPhone"),
        ("Cars", "car"),
        ("U.S.", "U.S."),
        ("İstanbul", "istanbul"),  # lower() changes the length: the whole lemma is the script
        ("_", "_"),
    ],
)
def test_the_script_turns_the_form_into_the_lemma(form, lemma):
    assert apply_rule(form, make_rule(form, lemma)) == lemma


def test_one_script_serves_unseen_words():
    rule = make_rule("walked", "walk")
    assert apply_rule("jumped", rule) == "jump"
    assert make_rule("jumped", "jump") == rule
    assert apply_rule("Houses", make_rule("Cars", "car")) == "house"


def test_a_script_that_does_not_fit_gives_the_form_back():
    rule = make_rule("watches", "watch")  # strips 2 characters
    assert apply_rule("a", rule) == "a"
    assert apply_rule("ab", rule) == "ab"  # a script keeps at least one character of the form
    for not_a_rule in ("@@UNKNOWN@@", "[]", '["x",0,"",0,""]', "{}", "7"):
        assert apply_rule("cats", not_a_rule) == "cats"


def test_every_ewt_dev_word_round_trips_and_few_scripts_cover_it():
    path = require_data("ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    scripts = set()
    words = 0
    with open(path, encoding="utf-8") as handle:
        for sentence in conllu.parse_incr(handle):
            for token in sentence:
                if isinstance(token["id"], int):
                    rule = make_rule(token["form"], token["lemma"])
                    assert apply_rule(token["form"], rule) == token["lemma"], (token["form"], token["lemma"], rule)
                    scripts.add(rule)
                    words += 1
    assert words > 20000 and len(scripts) < words / 50


def test_a_predicted_script_does_not_capitalise_a_lower_case_word():
    title = make_rule("canada", "Canada")
    assert apply_rule("naïve", title) == "Naïve"  # the script itself, as made from a name
    assert predicted_lemma("naïve", title) == "naïve"
    assert predicted_lemma("Naïve", title) == "Naïve"  # a capitalised word may keep its capital
    assert predicted_lemma("walked", make_rule("jumped", "jump")) == "walk"


def test_a_predicted_script_adds_nothing_to_a_word_without_letters():
    quote_s = make_rule("'", "'s")
    assert predicted_lemma("🎉", make_rule("x", "'x")) == "🎉"
    assert predicted_lemma("'", quote_s) == "'"
    assert predicted_lemma("…", make_rule("…", ".")) == "."  # a mark for a mark, as EWT writes them
