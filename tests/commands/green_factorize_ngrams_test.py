import numpy as np
import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive

from green_nlp.commands.green_factorize_ngrams import factorize_archive
from green_nlp.export import export_archive
from green_nlp.runtime import load
from tests.conftest import FIXTURES
from tests.dan_helpers import tiny_dan_run

# The tiny DAN: embedding_dim 8, hidden_dim 6, so the table acts through a rank <= 6 product.
FULL_RANK, LOW_RANK = 6, 2
TEXTS = ["a gorgeous , witty film", "boring and pointless", "the cast is good but the plot is thin", "zzz unseen"]


@pytest.fixture(scope="module")
def original():
    return load_archive(str(tiny_dan_run() / "model.tar.gz"))


def ids_of(archive, texts):
    """(batch, max_ngrams) n-gram ids of `texts` by the archive's own reader and vocabulary."""
    lookup = archive.model.vocab.get_token_to_index_vocabulary("ngrams")
    rows = [[lookup[g] for g in archive.dataset_reader.analyzer(t) if g in lookup] for t in texts]
    ids = torch.zeros(len(rows), max(len(r) for r in rows), dtype=torch.long)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = torch.tensor(row, dtype=torch.long)
    return ids


def pre_activations(model, ids):
    with torch.no_grad():
        return model.eval().hidden(model.encode(ids)).numpy()


def test_at_full_rank_the_predictions_are_unchanged(tmp_path, original):
    factorized = load_archive(factorize_archive(str(tiny_dan_run() / "model.tar.gz"), FULL_RANK, str(tmp_path / "f")))
    model = factorized.model.eval()
    assert model.ngram_embedding.weight.shape == (original.model.ngram_embedding.weight.shape[0], FULL_RANK)
    assert model.hidden.out_features == original.model.hidden.out_features == 6
    ids = ids_of(original, TEXTS)
    assert (ids != 0).any(1).sum() >= 3  # the texts do have known n-grams
    with torch.no_grad():
        before, after = original.model.eval()(ngrams=ids), model(ngrams=ids)
    np.testing.assert_allclose(after["probs"].numpy(), before["probs"].numpy(), atol=1e-5)


@pytest.mark.parametrize("unit_columns", [True, False])
def test_below_full_rank_pre_activations_are_the_best_rank_r_product(tmp_path, original, unit_columns):
    archive = str(tiny_dan_run() / "model.tar.gz")
    output = factorize_archive(archive, LOW_RANK, str(tmp_path / "low.tar.gz"), unit_columns=unit_columns)
    factorized = load_archive(output)  # reloads from its own config
    assert factorized.config["model"]["embedding_dim"] == LOW_RANK
    assert factorized.config["model"]["hidden_dim"] == 6
    assert factorized.model.vocab.get_vocab_size("ngrams") == original.model.vocab.get_vocab_size("ngrams")
    table = original.model.ngram_embedding.weight.detach().double().numpy().copy()
    weight = original.model.hidden.weight.detach().double().numpy()
    table[0] = 0.0
    u, s, vt = np.linalg.svd(table @ weight.T, full_matrices=False)
    assert s[LOW_RANK] > 1e-3 * s[0]  # the cut really drops something
    best = (u[:, :LOW_RANK] * s[:LOW_RANK]) @ vt[:LOW_RANK]
    ids = ids_of(original, TEXTS)
    counts = (ids != 0).sum(1, keepdim=True).clamp(min=1).numpy()
    bias = original.model.hidden.bias.detach().numpy()
    expected = best[ids.numpy()].sum(1) / counts + bias
    got = pre_activations(factorized.model, ids)
    np.testing.assert_allclose(got, expected, atol=1e-5)
    assert not np.allclose(got, pre_activations(original.model, ids), atol=1e-3)
    column_rms = factorized.model.ngram_embedding.weight.detach().pow(2).mean(0).sqrt().numpy()
    if unit_columns:  # the singular values went into the first layer
        np.testing.assert_allclose(column_rms, 1.0, rtol=1e-4)
    else:  # table U_r S_r: columns of RMS s_j / sqrt(rows)
        np.testing.assert_allclose(column_rms, s[:LOW_RANK] / np.sqrt(len(table)), rtol=1e-4)


def test_the_factorized_archive_exports_and_runs_in_the_runtime(tmp_path, original):
    output = factorize_archive(str(tiny_dan_run() / "model.tar.gz"), LOW_RANK, str(tmp_path / "low.tar.gz"))
    folder = export_archive(output, tmp_path / "export")
    with torch.no_grad():
        expected = load_archive(output).model.eval()(ngrams=ids_of(original, TEXTS))["probs"].numpy()
    got = [c.to_json()["probs"] for c in load(folder, precision="fp32", threads=1).classify_many(TEXTS)]
    np.testing.assert_allclose(np.array(got), expected, atol=1e-5)


def test_bad_ranks_and_archives_are_refused(tmp_path):
    archive = str(tiny_dan_run() / "model.tar.gz")
    for rank in (0, 8, 20):
        with pytest.raises(ConfigurationError, match=r"--rank must be in 1\.\.7"):
            factorize_archive(archive, rank, str(tmp_path / "x.tar.gz"))
    assert not (tmp_path / "x.tar.gz").exists()


def test_other_models_are_refused(tmp_path):
    with pytest.raises(ConfigurationError, match="is not an n-gram DAN"):
        factorize_archive(str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"), 2, str(tmp_path / "x.tar.gz"))


def test_the_command_line_writes_the_archive(tmp_path, monkeypatch):
    from allennlp.commands import main

    output = tmp_path / "cli.tar.gz"
    argv = ["allennlp", "green-factorize-ngrams", str(tiny_dan_run() / "model.tar.gz"), "--rank", "3"]
    monkeypatch.setattr("sys.argv", [*argv, "--output", str(output), "--singular-values-in-table"])
    main()
    model = load_archive(str(output)).model
    assert model.ngram_embedding.weight.shape[1] == 3 and model.hidden.in_features == 3


def test_the_input_archive_as_output_is_refused_before_loading(tmp_path):
    archive = tmp_path / "model.tar.gz"
    archive.write_bytes((tiny_dan_run() / "model.tar.gz").read_bytes())
    before = archive.read_bytes()
    with pytest.raises(ConfigurationError, match="is the input archive"):
        factorize_archive(str(archive), 2, str(archive))
    assert archive.read_bytes() == before
