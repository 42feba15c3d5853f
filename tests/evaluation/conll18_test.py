"""The CoNLL 2018 scorer on a two-sentence file whose scores are counted by hand.

fixtures/conll18/predicted.conllu is gold.conllu (13 words) with these changes:
  sentence 1: cat nsubj:pass -> nsubj, was aux:pass -> aux, dogs obl:agent -> obl (subtypes lost,
              heads right); by: head dogs -> chased (wrong head)
  sentence 2: it obj -> iobj (wrong relation); up compound:prt -> compound (subtype lost);
              quickly: head picked -> it (wrong head)
By hand:
  UAS    11 / 13: the two wrong heads (by, quickly)
  strict  6 / 13: also wrong, with full relations: cat, was, dogs, it, up
  LAS    10 / 13: universal relations: the subtype losses count as right; by, quickly, it do not
  CLAS    6 / 8: content words, same 8 on both sides (cat, chased, dogs; She, picked, it, up,
                 quickly); wrong: it (iobj), quickly (head)
  MLAS    4 / 8: CLAS-right words whose function-word children also agree (UPOS and FEATS are
                 copied): chased gains `by` as a case child and dogs loses it, so both fail;
                 left: cat, She, picked, up
"""

import pytest

from green_nlp.dataset_readers import read_conllu
from green_nlp.evaluation.conll18 import score_conllu
from tests.conftest import FIXTURES

GOLD = FIXTURES / "conll18" / "gold.conllu"
PREDICTED = FIXTURES / "conll18" / "predicted.conllu"


def test_scores_match_the_hand_count():
    scores = score_conllu(GOLD, PREDICTED)
    assert scores.gold_words == 13
    assert scores.uas == pytest.approx(100 * 11 / 13)
    assert scores.las == pytest.approx(100 * 10 / 13)
    assert scores.clas == pytest.approx(100 * 6 / 8)
    assert scores.mlas == pytest.approx(100 * 4 / 8)


def test_strict_las_counts_the_lost_subtypes_the_official_las_forgives():
    gold, predicted = list(read_conllu(GOLD)), list(read_conllu(PREDICTED))
    pairs = [
        (g, p) for gs, ps in zip(gold, predicted) for g, p in zip(zip(gs.heads, gs.deprels), zip(ps.heads, ps.deprels))
    ]
    strict = 100 * sum(g == p for g, p in pairs) / len(pairs)
    assert strict == pytest.approx(100 * 6 / 13)
    assert score_conllu(GOLD, PREDICTED).las - strict == pytest.approx(100 * 4 / 13)


def test_a_file_against_itself_scores_100():
    scores = score_conllu(GOLD, GOLD)
    assert (scores.uas, scores.las, scores.clas, scores.mlas) == (100.0, 100.0, 100.0, 100.0)


def test_files_with_other_text_cannot_be_scored(tmp_path):
    other = tmp_path / "other.conllu"
    other.write_text(GOLD.read_text(encoding="utf-8").replace("\tdogs\t", "\tcats\t"), encoding="utf-8")
    with pytest.raises(ValueError, match="cannot score .*other.conllu"):
        score_conllu(GOLD, other)


def test_sentence_boundaries_are_scored(tmp_path):
    """The fixture's two sentences written as one: no predicted sentence spans a gold one, so
    Sentences F1 is 0 while every token still matches."""
    import conllu

    first, second = conllu.parse(GOLD.read_text(encoding="utf-8"))
    offset, root = len(first), next(token["id"] for token in first if token["head"] == 0)
    for token in second:
        token["id"] += offset
        token["head"] = root if token["head"] == 0 else token["head"] + offset
    merged = conllu.TokenList(list(first) + list(second), metadata={"text": "both"})
    one = tmp_path / "one.conllu"
    one.write_text(merged.serialize(), encoding="utf-8")
    scores = score_conllu(GOLD, one)
    assert scores.sentences == 0.0 and scores.tokens == 100.0
    assert score_conllu(GOLD, PREDICTED).sentences == 100.0
