import json

import pytest
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from tests.dan_helpers import tiny_dan_run


@pytest.fixture(scope="module")
def predictor():
    return Predictor.from_archive(load_archive(str(tiny_dan_run() / "model.tar.gz")))  # the model's default


def test_raw_text_and_json_lines_give_the_same_prediction(predictor):
    raw = predictor.predict_json(predictor.load_line("the film is wonderful and charming\n"))
    as_sentence = predictor.predict_json(predictor.load_line('{"sentence": "the film is wonderful and charming"}'))
    assert raw == as_sentence
    assert set(raw) == {"label", "probs", "label_names", "logits", "num_ngrams"}
    assert raw["label"] == raw["label_names"][raw["probs"].index(max(raw["probs"]))]


def test_text_starting_with_a_brace_is_still_text(predictor):
    assert predictor.load_line("{not json} at all") == {"text": "{not json} at all"}


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
