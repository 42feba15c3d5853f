"""benchmarks.runtime.tagger: its sentences and the ways it times (the timing itself is
not asserted: speed is a ratio the script reports)."""

from benchmarks.runtime import tagger as bench
from tests.export.tagger_models import fixture_sentences, tagger_archive, tagger_folder


def test_without_the_data_it_falls_back_to_the_fixture_sentences(tmp_path, monkeypatch):
    monkeypatch.setenv("GREEN_NLP_DATA", str(tmp_path))
    data = bench.test_sentences(limit=5)
    assert data == {"source": "fixture sentences", "sentences": fixture_sentences()[:5]}


def test_every_way_gives_the_same_records():
    from allennlp.predictors import Predictor

    from green_nlp.runtime import load

    predictor = Predictor.from_path(str(tagger_archive("origin")), "green_sentence_tagger")
    lines = [" ".join(words) for words in fixture_sentences()[:5]]
    runs = bench.runs_for(predictor, {"fp32": load(tagger_folder("origin"))}, lines)
    assert sorted(runs) == sorted(
        f"{way}, batch {size}" for way in ("allennlp predictor", "runtime fp32") for size in bench.BATCH_SIZES
    )
    for size in bench.BATCH_SIZES:
        from_predictor = [record for chunk in runs[f"allennlp predictor, batch {size}"]() for record in chunk]
        from_runtime = [result.to_json() for result in runs[f"runtime fp32, batch {size}"]()]
        assert len(from_runtime) == 5 and from_runtime == from_predictor
