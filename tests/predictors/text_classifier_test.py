import json

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from tests.dan_helpers import sst2_label_names, tiny_dan_run, tiny_named_dan_run


@pytest.fixture(scope="module")
def predictor():
    return Predictor.from_archive(load_archive(str(tiny_dan_run() / "model.tar.gz")))  # the model's default


def test_raw_text_and_json_lines_give_the_same_prediction(predictor):
    raw = predictor.predict_json(predictor.load_line("the film is wonderful and charming\n"))
    as_sentence = predictor.predict_json(predictor.load_line('{"sentence": "the film is wonderful and charming"}'))
    assert raw == as_sentence
    assert set(raw) == {"label", "probs", "label_names", "logits", "num_ngrams", "no_known_features"}
    assert raw["label"] == raw["label_names"][raw["probs"].index(max(raw["probs"]))]


def test_a_line_starting_with_a_brace_is_json_not_text(predictor):
    with pytest.raises(ValueError, match="broken JSON"):  # a line starting with { is JSON (issue 34)
        predictor.load_line("{not json} at all")


def test_batches_match_single_predictions_and_dump_one_line_each(predictor):
    texts = ["a dull and boring plot", "great", "zzzz"]
    batch = predictor.predict_batch_json([{"text": t} for t in texts])
    for text, output in zip(texts, batch):
        assert output["probs"] == pytest.approx(predictor.predict_json({"text": text})["probs"], abs=1e-6)
    line = predictor.dump_line(batch[0])
    assert line.endswith("\n") and json.loads(line) == batch[0]


def test_missing_text_is_a_clear_error(predictor):
    with pytest.raises(ValueError, match="'text' or 'sentence'"):
        predictor.predict_json({"review": "x"})


def test_a_model_trained_with_label_names_predicts_the_names():
    named = Predictor.from_archive(load_archive(str(tiny_named_dan_run() / "model.tar.gz")))
    output = named.predict_json({"text": "the film is wonderful and charming"})
    assert output["label_names"] == ["negative", "positive"] and output["label"] in output["label_names"]


def test_an_archive_with_raw_labels_still_predicts_and_can_be_given_names(predictor):
    assert predictor.predict_json({"text": "great"})["label_names"] == ["0", "1"]  # archives from before names
    overrides = {"validation_dataset_reader.label_names": sst2_label_names()}
    renamed = Predictor.from_archive(load_archive(str(tiny_dan_run() / "model.tar.gz"), overrides=overrides))
    for text in ("great", "a dull and boring plot"):
        raw, named = predictor.predict_json({"text": text}), renamed.predict_json({"text": text})
        assert named["probs"] == raw["probs"] and named["label_names"] == ["negative", "positive"]
        assert named["label"] == sst2_label_names()[raw["label"]]


def test_a_text_without_a_known_ngram_is_flagged_or_an_error(predictor):
    """No silent default (issue 43): the prior's label comes flagged, or an error record when asked."""
    from allennlp.common.checks import ConfigurationError

    flagged = predictor.predict_json({"text": "???"})
    assert flagged["num_ngrams"] == 0 and flagged["no_known_features"] is True
    assert predictor.predict_json({"text": "the film is wonderful"})["no_known_features"] is False
    strict = Predictor.from_archive(
        load_archive(str(tiny_dan_run() / "model.tar.gz")), extra_args={"no_known_features": "error"}
    )
    assert "no n-gram of this text is known" in strict.predict_json({"text": "???"})["error"]
    with pytest.raises(ConfigurationError, match="no_known_features must be one of flag, error"):
        Predictor.from_archive(
            load_archive(str(tiny_dan_run() / "model.tar.gz")), extra_args={"no_known_features": "x"}
        )
