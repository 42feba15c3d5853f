"""Bad docs in the spaCy components (issue 44): the parser flags a NUL as the other components do,
the NER component has the parser's length limit, and a message names its component once."""

import logging

import pytest
import spacy
from spacy.language import Language

from green_nlp.integrations import spacy_components
from tests.conftest import FIXTURES

TAGGER = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"
GOOD = ["The old parser finds a quick tree near the river.", "the dog runs ."]


@pytest.fixture(scope="module")
def parser_nlp(quickstart_archive):
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("green_nlp_parser", config={"archive": str(quickstart_archive), "max_sentence_length": 20})
    return nlp


def _flagged(nlp, texts, caplog):
    with caplog.at_level(logging.WARNING, logger=spacy_components.__name__):
        return list(nlp.pipe(texts, batch_size=len(texts)))


def test_parser_flags_a_doc_holding_a_nul_and_parses_the_rest(parser_nlp, caplog):
    texts = [GOOD[0], "binary \x00 junk here", GOOD[1]]
    docs = _flagged(parser_nlp, texts, caplog)
    assert docs[1]._.green_error == "green_nlp_parser: token 1 ('\\x00') holds a NUL character; remove it from the text"
    assert not any(token.dep_ for token in docs[1])  # unannotated, not half-parsed
    for doc in docs:
        if doc is not docs[1]:
            assert doc._.green_error is None and all(token.dep_ for token in doc)
    with pytest.raises(ValueError, match=r"^green_nlp_parser: token 1 .*NUL"):
        parser_nlp(texts[1])


def test_warnings_and_errors_name_the_component_once(parser_nlp, caplog):
    too_long = " ".join(["word"] * 25)
    docs = _flagged(parser_nlp, [GOOD[0], too_long], caplog)
    assert docs[1]._.green_error.startswith("green_nlp_parser: a sentence of 25 tokens")
    assert "left unannotated by green_nlp_parser: a sentence of 25 tokens" in caplog.text
    assert "green_nlp_parser: green_nlp_parser" not in caplog.text + docs[1]._.green_error
    with pytest.raises(ValueError) as error:
        parser_nlp(too_long)
    assert str(error.value).count("green_nlp_parser") == 1


@pytest.fixture(scope="module")
def ner_nlp():
    if not TAGGER.exists():
        pytest.skip(f"no tagger fixture archive at {TAGGER}")
    nlp = spacy.blank("en")
    nlp.add_pipe("green_nlp_ner", config={"archive": str(TAGGER), "max_sentence_length": 30})
    return nlp


def test_ner_refuses_an_over_long_doc_before_the_model_and_flags_it_in_pipe(ner_nlp, caplog):
    too_long = " ".join(["Paris"] * 40)
    texts = ["Paul lives in New York .", too_long, "Peter Blackburn visited Brussels ."]
    docs = _flagged(ner_nlp, texts, caplog)
    assert docs[1]._.green_error == (
        "green_nlp_ner: a sentence of 40 tokens (from token 0) is over max_sentence_length=30; "
        "split it or raise the limit"
    )
    assert docs[1].ents == ()
    for text, doc in zip(texts, docs):
        if doc is not docs[1]:
            assert doc._.green_error is None
            assert [(e.start, e.end, e.label_) for e in doc.ents] == [
                (e.start, e.end, e.label_) for e in ner_nlp(text).ents
            ]
    with pytest.raises(ValueError, match="^green_nlp_ner: a sentence of 40 tokens"):
        ner_nlp(too_long)


def test_ner_default_limit_is_the_parser_s_and_a_nul_is_flagged(ner_nlp, caplog):
    parser_default = Language.get_factory_meta("green_nlp_parser").default_config["max_sentence_length"]
    assert Language.get_factory_meta("green_nlp_ner").default_config["max_sentence_length"] == parser_default == 1000
    docs = _flagged(ner_nlp, ["EU \x00 rejects", "EU rejects German call ."], caplog)
    assert "NUL" in docs[0]._.green_error and docs[1]._.green_error is None
