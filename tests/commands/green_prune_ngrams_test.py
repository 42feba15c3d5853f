import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.commands.green_prune_ngrams import prune_archive
from tests.dan_helpers import DAN_FIXTURES, tiny_dan_run


def _predict(archive, texts):
    predictor = Predictor.from_archive(load_archive(str(archive)), "green_text_classifier")
    return [predictor.predict_json({"text": text}) for text in texts]


def test_pruning_keeps_predictions_of_texts_whose_ngrams_are_all_kept(tmp_path):
    original = tiny_dan_run() / "model.tar.gz"
    pruned = tmp_path / "pruned.tar.gz"
    prune_archive(str(original), 40, str(pruned))
    small = load_archive(str(pruned))  # reloads from its own config
    big = load_archive(str(original))
    assert small.model.vocab.get_vocab_size("ngrams") == 42
    assert small.model.ngram_embedding.weight.shape == (42, big.model.ngram_embedding.weight.shape[1])
    kept = [small.model.vocab.get_token_from_index(i, "ngrams") for i in range(2, 42)]
    assert kept == [big.model.vocab.get_token_from_index(i, "ngrams") for i in range(2, 42)]  # most frequent first
    analyzer = big.dataset_reader.analyzer
    # kept n-grams as texts: covered when all their sub-n-grams are kept too
    covered = [t for t in kept if " " in t and set(analyzer(t)) <= set(kept)]
    uncovered = [f"{t} {rare}" for t, rare in zip(covered, ("boring", "pointless", "tedious", "awful"))]
    assert len(covered) >= 3 and all(not set(analyzer(t)) <= set(kept) for t in uncovered)
    for before, after in zip(_predict(original, covered), _predict(pruned, covered)):
        assert after["probs"] == pytest.approx(before["probs"], abs=1e-6)
    changed = [
        b["probs"] != pytest.approx(a["probs"], abs=1e-6)
        for b, a in zip(_predict(original, uncovered), _predict(pruned, uncovered))
    ]
    assert any(changed)


def test_pruning_by_counts_in_another_file(tmp_path):
    original = tiny_dan_run() / "model.tar.gz"
    pruned = tmp_path / "by_dev.tar.gz"
    prune_archive(str(original), 10, str(pruned), frequency_file=str(DAN_FIXTURES / "sst2_dev.tsv"))
    small, big = load_archive(str(pruned)).model, load_archive(str(original)).model
    for i in range(2, 12):
        name = small.vocab.get_token_from_index(i, "ngrams")
        big_row = big.ngram_embedding.weight[big.vocab.get_token_index(name, "ngrams")]
        assert torch.equal(small.ngram_embedding.weight[i], big_row)


def test_bad_sizes_are_refused(tmp_path):
    with pytest.raises(ConfigurationError, match="--keep must be in 1.."):
        prune_archive(str(tiny_dan_run() / "model.tar.gz"), 0, str(tmp_path / "x.tar.gz"))


def test_the_input_archive_as_output_is_refused_and_left_whole(tmp_path):
    """`--output` = the archive replaced the model by its pruned copy, without a word."""
    archive = tmp_path / "model.tar.gz"
    archive.write_bytes((tiny_dan_run() / "model.tar.gz").read_bytes())
    before = archive.read_bytes()
    with pytest.raises(ConfigurationError, match="is the input archive .*: writing there would replace the model"):
        prune_archive(str(archive), 10, str(tmp_path / "." / "model.tar.gz"))
    assert archive.read_bytes() == before


def test_a_folder_as_output_is_refused(tmp_path):
    """AllenNLP wrote `model.tar.gz` inside it: given a run's folder, over the run's own archive."""
    run = tmp_path / "run"
    run.mkdir()
    with pytest.raises(ConfigurationError, match="is a folder: give the archive's file name"):
        prune_archive(str(tiny_dan_run() / "model.tar.gz"), 10, str(run))
    assert list(run.iterdir()) == []
