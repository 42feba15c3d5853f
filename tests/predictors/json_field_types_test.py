"""JSON fields of the wrong type are rejected by every predictor, naming the field and the type it
needs (issue 34): `{"words": "abc"}` used to be parsed as the words a, b, c. Also: JSON input
carries its line number, and multiword-token lines survive the parser's CoNLL-U output."""

import json

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.commands.green_predict import BulkPredictor
from green_nlp.dataset_readers import ConlluDependenciesReader
from tests.conftest import BAD_INPUTS, FIXTURES
from tests.dan_helpers import tiny_dan_run

PARSER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"  # gold UPOS in: JSON words + upos
TAGGER = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"

WRONG = [
    ({"words": "abc"}, "field 'words' must be a list of strings, got a string"),
    ({"words": ["a", 3]}, "field 'words' must be a list of strings; item 2 is a number"),
    ({"words": ["a", ""]}, "field 'words': item 2 is empty or only whitespace"),
    ({"words": ["a\tb"]}, "field 'words': item 1 holds a tab"),
    ({"words": ["a\u0000b"]}, "field 'words': item 1 holds a NUL character"),
    ({"sentence": None}, "field 'sentence' must be a string, got null"),
    ({"sentence": 42}, "field 'sentence' must be a string, got a number"),
    ({"sentence": ["a", "b"]}, "field 'sentence' must be a string, got a list"),
    ({"sentence": "a \u0000 b"}, "field 'sentence' holds a NUL character at position 3"),
    ({"text": {"a": 1}}, "field 'text' must be a string, got an object"),
]


@pytest.fixture(scope="module")
def predictors():
    return {
        "parser": Predictor.from_archive(
            load_archive(str(PARSER)), "green_dependency_parser", extra_args={"output_format": "json"}
        ),
        "tagger": Predictor.from_archive(load_archive(str(TAGGER))),
        "classifier": Predictor.from_archive(load_archive(str(tiny_dan_run() / "model.tar.gz"))),
    }


@pytest.mark.parametrize("family", ["parser", "tagger", "classifier"])
@pytest.mark.parametrize("record, why", WRONG)
def test_a_field_of_the_wrong_type_is_an_error_naming_it(predictors, family, record, why):
    predictor = predictors[family]
    with pytest.raises(ValueError, match=rf"^{why.replace('(', '[(]')}"):
        predictor.load_line(json.dumps(record))  # what allennlp predict and green-predict call first
    if family == "parser":  # predict_json as a library call gives the parser's per-line error record
        assert why in predictor.predict_json(dict(record))["error"]
    else:
        with pytest.raises(ValueError, match="must be|item|holds"):
            predictor.predict_json(dict(record))


def test_upos_of_the_wrong_type_is_an_error(predictors):
    record = predictors["parser"].predict_json({"words": ["A", "dog"], "upos": "DET NOUN"})
    assert record["error"] == "field 'upos' must be a list of strings, got a string"


def test_green_predict_names_the_physical_line_of_json_input(predictors, tmp_path, caplog):
    """The parser's own error records and warnings said `line None` for JSON input."""
    path = BAD_INPUTS / "parser_json_wrong_types.jsonl"
    mismatched = tmp_path / "in.jsonl"
    mismatched.write_text(path.read_text() + "\n" + json.dumps({"words": ["a", "cat"], "upos": ["DET"]}) + "\n")
    errors = []

    class Errors:
        write = errors.append

    import io

    output = io.StringIO()
    report = BulkPredictor(predictors["parser"], batch_size=8).run(mismatched, output, progress=False, errors=Errors())  # type: ignore[arg-type]
    lines = [json.loads(record)["line"] for record in errors]
    assert lines == [2, 3, 4, 5, 6, 7, 10]
    assert report.predicted == 2
    warnings = [record.getMessage() for record in caplog.records if record.levelname == "WARNING"]
    assert "line None" not in caplog.text
    # one warning a failed line, the streamer's (the predictor's own said it again)
    assert [message for message in warnings if "1 tags for 2 'words'" in message] == [
        f"skipped {mismatched}:10: 'upos' has 1 tags for 2 'words'"
    ]
    assert predictors["parser"].load_line(json.dumps({"words": ["a"]}))["line"] > 0


def test_multiword_token_lines_survive_the_conllu_output(tmp_path):
    archive = load_archive(str(PARSER))
    predictor = Predictor.from_archive(archive, "green_dependency_parser")
    reader = ConlluDependenciesReader()
    instances = list(reader.read(str(BAD_INPUTS / "conllu_multiword_and_empty_nodes.conllu")))
    text = predictor.dump_line(predictor.predict_instance(instances[0]))
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert [line.split("\t")[0] for line in lines] == ["1", "2-3", "2", "3", "4", "5"]  # 4.1 (empty node) dropped
    assert lines[1].split("\t")[:2] == ["2-3", "don't"]
    json_predictor = Predictor.from_archive(archive, "green_dependency_parser", extra_args={"output_format": "json"})
    record = json_predictor.predict_instance(instances[0])["sentences"][0]
    assert record["multiword_tokens"] == [["2-3", "don't"] + ["_"] * 8]


@pytest.mark.parametrize("text", ["", "   ", "\t"])
def test_a_sentence_without_words_is_an_error_record_not_a_missing_block(predictors, text):
    record = predictors["parser"].predict_json({"sentence": text})
    assert record["error"] == "no words to parse in 'sentence'" and "sentences" not in record


def test_the_parser_predictor_reads_text_as_the_runtime_and_the_server_do(predictors):
    parser = predictors["parser"]  # the fixture takes gold UPOS: its reading of the line is what is checked
    by_text = parser._sentences({"text": "The cat sat. It slept."})
    assert by_text == parser._sentences({"sentence": "The cat sat. It slept."})
    assert [sentence["words"] for sentence in by_text] == [["The", "cat", "sat", "."], ["It", "slept", "."]]


@pytest.mark.parametrize("text", ["", "   "])
def test_the_classifier_predictor_refuses_an_empty_text_as_the_runtime_does(predictors, text):
    with pytest.raises(ValueError, match="is empty: nothing to classify"):
        predictors["classifier"].predict_json({"text": text})
