"""benchmarks.parser.shipped_conll18 on the fixture treebank with the shipped parser: the file it
writes holds the runtime's trees in the gold file's other columns, so with gold tokens the official
UAS equals green_nlp's strict UAS; from raw text the official scorer aligns spaCy's tokens."""

from pathlib import Path

import conllu
import pytest

from benchmarks.parser.shipped_conll18 import predicted_file, raw_text_file
from green_nlp.evaluation.conll18 import score_conllu
from green_nlp.runtime import load

GOLD = Path(__file__).resolve().parents[3] / "fixtures" / "ud" / "synthetic-dev.conllu"


@pytest.fixture(scope="module")
def parser():
    return load("en-ewt-parser", threads=1)


def read(path: Path):
    with open(path, encoding="utf-8") as handle:
        return list(conllu.parse_incr(handle))


def test_gold_tokens_file_holds_the_runtime_trees_and_scores_agree(parser, tmp_path):
    out = tmp_path / "predicted.conllu"
    strict = predicted_file(parser, read(GOLD), out)
    written = read(out)
    words = [[token["form"] for token in sentence] for sentence in read(GOLD)]
    expected = list(parser.parse_sentences([(w, None) for w in words], batch_size=32))
    assert [[token["head"] for token in sentence] for sentence in written] == [tree.heads for tree in expected]
    assert [[token["deprel"] for token in sentence] for sentence in written] == [tree.deprels for tree in expected]
    official = score_conllu(GOLD, out)
    assert official.tokens == official.words == 100.0
    assert official.uas == pytest.approx(strict["strict_uas"])  # same words, same heads: the same accuracy
    assert strict["words"] == sum(len(w) for w in words)


def test_raw_text_file_is_scored_against_the_gold_words(parser, tmp_path):
    out = tmp_path / "raw.conllu"
    raw_text_file(parser, read(GOLD), out)
    scores = score_conllu(GOLD, out)
    assert 50.0 < scores.tokens <= 100.0 and scores.gold_words == sum(len(s) for s in read(GOLD))


def test_gold_tokens_file_holds_the_models_lemmas_features_and_xpos(parser, tmp_path):
    out = tmp_path / "predicted.conllu"
    predicted_file(parser, read(GOLD), out)
    words = [[token["form"] for token in sentence] for sentence in read(GOLD)]
    expected = list(parser.parse_sentences([(w, None) for w in words], batch_size=32))
    assert all(tree.lemmas and tree.feats and tree.xpos for tree in expected)  # the shipped parser has the heads
    written = read(out)
    assert [[token["lemma"] for token in sentence] for sentence in written] == [tree.lemmas for tree in expected]
    assert [[token["xpos"] for token in sentence] for sentence in written] == [tree.xpos for tree in expected]
    assert [[token["feats"] for token in sentence] for sentence in written] == [
        [conllu.parser.parse_dict_value(feats) for feats in tree.feats] for tree in expected
    ]
