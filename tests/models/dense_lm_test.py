import math

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch, Vocabulary
from allennlp.models.archival import load_archive

from green_nlp.models.dense_lm import DenseLanguageModel, reverse_padded
from tests.conftest import FIXTURES, REPO_ROOT

LM_TEXT = FIXTURES / "ldnet" / "lm" / "train.txt"
ARCHIVES = FIXTURES / "ldnet" / "archives"
NO_SHUFFLE = '{"data_loader.batch_sampler.shuffle": false, "data_loader.batch_sampler.padding_noise": 0}'


@pytest.fixture(autouse=True)
def _fixture_data(monkeypatch):
    monkeypatch.setenv("LDNET_DATA", "fixtures/ldnet/data")
    monkeypatch.chdir(REPO_ROOT)


def test_reverse_padded_reverses_words_and_keeps_padding():
    ids = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0]])
    mask = ids > 0
    assert reverse_padded(ids, mask).tolist() == [[3, 2, 1, 0], [5, 4, 0, 0]]
    values = torch.randn(2, 4, 3)
    assert torch.equal(reverse_padded(reverse_padded(values, mask), mask), values)


class TestDenseLanguageModel(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(REPO_ROOT / "training_configs" / "ldnet" / "lm_forward.jsonnet", LM_TEXT)

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-4, overrides=NO_SHUFFLE)

    def test_perplexity_is_exp_of_the_mean_word_nll(self):
        self.model.eval()
        batch = Batch(self.instances[:4])
        batch.index_instances(self.vocab)
        output = self.model(**batch.as_tensor_dict())
        metrics = self.model.get_metrics(reset=True)
        assert metrics["perplexity"] == pytest.approx(math.exp(metrics["nll"]))
        assert metrics["nll"] == pytest.approx(float(output["loss"].detach()), rel=1e-4)  # sentences' words weigh alike


def test_backward_lm_scores_reversed_text_like_a_forward_lm_with_the_same_weights():
    forward = load_archive(str(ARCHIVES / "lm_forward.tar.gz")).model.eval()
    vocab = forward.vocab
    backward = DenseLanguageModel(
        vocab, embedding_dim=8, hidden_dim=6, num_layers=3, projection_dim=8, cutoffs=[20], direction="backward"
    ).eval()
    backward.load_state_dict(forward.state_dict())
    ids = torch.tensor([[3, 4, 5, 6], [7, 8, 9, 0]])
    reversed_ids = torch.tensor([[6, 5, 4, 3], [9, 8, 7, 0]])
    as_tokens = lambda t: {"tokens": {"tokens": t}}  # noqa: E731
    with torch.no_grad():  # losses compared as numbers: no graph needed
        forward_loss = float(forward(as_tokens(reversed_ids))["loss"])
        backward_loss = float(backward(as_tokens(ids))["loss"])
    assert backward_loss == pytest.approx(forward_loss, rel=1e-5)
    # layer outputs come back in text order: position 0 of the backward LM has read the whole row
    mask = ids > 0
    back_layers = backward.layer_outputs(ids, mask)
    fwd_layers = forward.layer_outputs(reversed_ids, mask)
    assert torch.allclose(back_layers[0][0, 0], fwd_layers[0][0, 3], atol=1e-6)


def test_pretrained_file_copies_vocabulary_and_weights_and_checks_the_architecture():
    archive = str(ARCHIVES / "lm_forward.tar.gz")
    source = load_archive(archive).model
    vocab = Vocabulary()
    lm = DenseLanguageModel(
        vocab,
        embedding_dim=8,
        hidden_dim=6,
        num_layers=3,
        namespace="ldnet_lm_tokens",
        with_softmax=False,
        pretrained_file=archive,
    )
    source_tokens = source.vocab.get_token_to_index_vocabulary("tokens")
    assert vocab.get_token_to_index_vocabulary("ldnet_lm_tokens") == source_tokens
    assert torch.equal(lm.rnn.layers[2].weight_ih_l0, source.rnn.layers[2].weight_ih_l0)
    assert not hasattr(lm, "softmax")
    with pytest.raises(ConfigurationError, match="num_layers is 4 here but 3 in the archive"):
        DenseLanguageModel(Vocabulary(), embedding_dim=8, hidden_dim=6, num_layers=4, pretrained_file=archive)
    with pytest.raises(ConfigurationError, match="direction is backward here but forward"):
        DenseLanguageModel(
            Vocabulary(), embedding_dim=8, hidden_dim=6, num_layers=3, direction="backward", pretrained_file=archive
        )
    with pytest.raises(ConfigurationError, match="namespace 'tokens' is empty"):
        DenseLanguageModel(Vocabulary(), embedding_dim=8, hidden_dim=6, num_layers=3)
