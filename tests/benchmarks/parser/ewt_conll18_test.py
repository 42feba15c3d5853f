"""benchmarks.parser.ewt's CoNLL 2018 columns on the fixture treebank, with the fixture parser:
the CoNLL-U the predictor writes, and the gold file with a model's predictions written in (for
allennlp-models' parser), both scored by the official scorer."""

import pytest
from allennlp.models.archival import load_archive

from benchmarks.parser import ewt as benchmark
from tests.conftest import FIXTURES

TEST_FILE = FIXTURES / "ud" / "synthetic-tiny.conllu"  # no relation subtypes: strict LAS = CoNLL 2018 LAS
PARSER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"


@pytest.fixture(scope="module")
def parsed():
    archive = load_archive(str(PARSER))
    model = archive.model.eval()
    batches = benchmark.make_batches(benchmark.read_for_model(archive, TEST_FILE), model.vocab, 4)
    predictions, _ = benchmark.predict(model, batches)
    return benchmark, archive, predictions


def test_predictor_conllu_scores_as_the_benchmark_own_predictions(parsed):
    benchmark, archive, predictions = parsed
    uas, las = benchmark.attachment_scores(TEST_FILE, predictions)
    assert 0 < las < 100  # a tiny parser: the comparison below is not between two perfect scores
    scores = benchmark.conll18_scores(archive, TEST_FILE, predictions, batch_size=4)
    assert scores["conll18_uas"] == pytest.approx(uas, abs=0.01)
    assert scores["conll18_las"] == pytest.approx(las, abs=0.01)
    assert 0 < scores["mlas"] <= scores["clas"] <= 100


def test_predictions_written_into_gold_score_as_the_predictor_file(parsed, tmp_path):
    benchmark, archive, predictions = parsed
    written = tmp_path / "written.conllu"
    benchmark.write_into_gold(TEST_FILE, predictions, written)
    scores = benchmark.score_conllu(TEST_FILE, written)
    from_predictor = benchmark.conll18_scores(archive, TEST_FILE, predictions, batch_size=4)
    assert round(scores.las, 2) == from_predictor["conll18_las"]
    assert round(scores.clas, 2) == from_predictor["clas"]
    assert benchmark.score_conllu(TEST_FILE, TEST_FILE).las == 100.0
