"""The CoNLL 2018 scores of the columns the parser's extra heads predict: LEMMA, UFeats, XPOS, BLEX."""

from green_nlp.evaluation.conll18 import score_conllu
from tests.conftest import FIXTURES

GOLD = FIXTURES / "ud" / "synthetic-tiny-ud-columns.conllu"


def test_gold_against_itself_is_perfect_on_every_column():
    scores = score_conllu(GOLD, GOLD)
    assert scores.lemmas == scores.ufeats == scores.xpos == scores.blex == 100.0


def test_each_column_is_scored_on_its_own(tmp_path):
    lines = GOLD.read_text(encoding="utf-8").split("\n")
    changed = []
    for line in lines:
        columns = line.split("\t")
        if len(columns) == 10 and columns[3] == "VERB":
            columns[2] = columns[1]  # lemma = form: wrong for every verb in -s
            columns[5] = "_"  # features dropped
        changed.append("\t".join(columns))
    predicted = tmp_path / "predicted.conllu"
    predicted.write_text("\n".join(changed), encoding="utf-8")
    scores = score_conllu(GOLD, predicted)
    assert scores.lemmas < 100.0 and scores.ufeats < 100.0 and scores.blex < 100.0
    assert scores.xpos == scores.upos == scores.las == 100.0
