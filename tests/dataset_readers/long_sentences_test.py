"""A very long sentence on its way to the parser is named once, with its place, its length and the
max_sentence_length setting (issue 44: a 3,000-token sentence took about 100 s with no word said)."""

import logging

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.dataset_readers import ConlluDependenciesReader, long_sentences
from green_nlp.dataset_readers.long_sentences import LONG_SENTENCE
from tests.conftest import FIXTURES

PARSER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"  # gold UPOS in: JSON words + upos


def _block(length: int) -> str:
    rows = [
        f"{i}\tw{i}\tw{i}\tNOUN\t_\t_\t{0 if i == 1 else 1}\t{'root' if i == 1 else 'dep'}\t_\t_"
        for i in range(1, length + 1)
    ]
    return "\n".join(rows) + "\n\n"


@pytest.fixture
def conllu(tmp_path):
    path = tmp_path / "long.conllu"
    # line 1: a 5-word sentence; line 7: 350 words; then 400 words; then 5 again
    path.write_text(_block(5) + _block(LONG_SENTENCE + 50) + _block(LONG_SENTENCE + 100) + _block(5), encoding="utf-8")
    return path


def _read(reader, path, caplog):
    with caplog.at_level(logging.WARNING, logger=long_sentences.__name__):
        instances = list(reader.read(str(path)))
    return instances, [r.getMessage() for r in caplog.records if r.name == long_sentences.__name__]


def test_the_reader_names_the_first_long_sentence_once(conllu, caplog):
    instances, warnings = _read(ConlluDependenciesReader(), conllu, caplog)
    assert len(instances) == 4  # a warning, not a refusal: every sentence is read
    assert len(warnings) == 1
    assert warnings[0].startswith(f"{conllu}:7: a sentence of {LONG_SENTENCE + 50} words;")
    assert "max_sentence_length is not set (no limit)" in warnings[0]
    assert "validation_dataset_reader.max_sentence_length" in warnings[0]


def test_sentences_the_reader_skips_are_not_reported_as_slow(conllu, caplog):
    instances, warnings = _read(ConlluDependenciesReader(max_sentence_length=LONG_SENTENCE), conllu, caplog)
    assert len(instances) == 2 and warnings == []


def test_short_sentences_say_nothing(tmp_path, caplog):
    path = tmp_path / "short.conllu"
    path.write_text(_block(LONG_SENTENCE) + _block(3), encoding="utf-8")
    assert _read(ConlluDependenciesReader(), path, caplog)[1] == []


def test_the_predictor_names_the_line_once(caplog):
    predictor = Predictor.from_archive(load_archive(str(PARSER)), "green_dependency_parser")
    long_line = {"words": ["the"] * (LONG_SENTENCE + 10), "upos": ["DET"] * (LONG_SENTENCE + 10), "line": 4}
    inputs = [{"words": ["a", "cat"], "upos": ["DET", "NOUN"], "line": 3}, long_line, {**long_line, "line": 5}]
    with caplog.at_level(logging.WARNING, logger=long_sentences.__name__):
        results = predictor.predict_batch_json(inputs)
    assert all("error" not in result for result in results)  # parsed: under the predictor's limit
    warnings = [r.getMessage() for r in caplog.records if r.name == long_sentences.__name__]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"line 4: a sentence of {LONG_SENTENCE + 10} words;")
    assert "max_sentence_length is 1000" in warnings[0] and "--predictor-args" in warnings[0]
