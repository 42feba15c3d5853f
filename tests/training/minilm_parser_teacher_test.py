"""training_configs/parser/ud_ewt_minilm_teacher.jsonnet: the raw-text transformer teacher builds from
the real config (fixture data, small parser dims), trains and parses raw text; no download."""

from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from tests.parser_teacher_helpers import minilm_parser_teacher


def test_the_minilm_teacher_trains_and_parses_raw_text():
    archive = load_archive(str(minilm_parser_teacher()))
    model = archive.model
    embedders = model.text_field_embedder._token_embedders
    assert set(embedders) == {"transformer", "token_characters"}  # word pieces + characters, no word table
    assert type(embedders["transformer"]).__name__ == "PretrainedTransformerMismatchedEmbedder"
    assert model.upos_embedding is None and model.upos_projection is not None  # no gold UPOS in, UPOS out
    from green_nlp.settings import minilm_dir

    reader_config = archive.config["validation_dataset_reader"].as_dict()
    assert reader_config["token_indexers"]["transformer"]["model_name"] == str(minilm_dir())  # the local package
    predictor = Predictor.from_archive(archive)
    output = predictor.predict_json({"sentence": "The old parser finds a quick tree. It reads well."})
    sentences = output["sentences"]
    assert [s["words"][:3] for s in sentences] == [["The", "old", "parser"], ["It", "reads", "well"]]
    for sentence in sentences:
        n = len(sentence["words"])
        assert len(sentence["heads"]) == n and all(0 <= h <= n for h in sentence["heads"])
        assert sentence["heads"].count(0) == 1  # one root: a tree
        assert len(sentence["upos"]) == n and len(sentence["deprels"]) == n
