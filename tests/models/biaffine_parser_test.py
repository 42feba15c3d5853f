import copy

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

from green_nlp.nn.parameters import count_trainable_parameters
from tests.conftest import FIXTURES


class TestBiaffineParser(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES / "parser" / "experiment.jsonnet",
                          FIXTURES / "ud" / "synthetic-tiny.conllu")

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(self.param_file)

    def test_words_only_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(FIXTURES / "parser" / "experiment_words_only.jsonnet")

    def test_batch_predictions_are_consistent(self):
        self.ensure_batch_predictions_are_consistent()

    def test_decoded_heads_are_trees_and_labels_come_from_the_vocabulary(self):
        self.model.eval()
        output = self.model.forward_on_instances(self.instances)
        labels = set(self.vocab.get_token_to_index_vocabulary("deprel_labels"))
        for instance, prediction in zip(self.instances, output):
            n = len(instance["words"].tokens)
            heads = prediction["predicted_heads"]
            assert len(heads) == n and sum(1 for h in heads if h == 0) == 1
            assert set(prediction["predicted_deprels"]) <= labels
            assert len(prediction["predicted_upos"]) == n

    def test_loss_falls_when_training(self):
        model = self.model
        optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
        batch = self.dataset.as_tensor_dict()
        model.train()
        first = model(**batch)["loss"].item()
        for _ in range(30):
            optimizer.zero_grad()
            model(**batch)["loss"].backward()
            optimizer.step()
        assert model(**batch)["loss"].item() < first / 2

    def test_unseen_gold_labels_drop_out_of_the_label_loss_only(self):
        self.model.eval()
        batch = self.dataset.as_tensor_dict()
        scores = self.model.score(batch["words"], batch["upos"])
        tags = batch["head_tags"].clone()
        full = self.model.loss(scores, batch["head_indices"], tags, batch["upos"])
        tags[0, 0] = -1  # UNSEEN_LABEL
        without_one = self.model.loss(scores, batch["head_indices"], tags, batch["upos"])
        assert torch.isfinite(without_one) and without_one < full
        arc_only = self.model.loss(scores, batch["head_indices"], torch.full_like(tags, -1), batch["upos"])
        assert 0 < arc_only < without_one

    def test_scores_expose_raw_arc_and_label_scores(self):
        batch = self.dataset.as_tensor_dict()
        scores = self.model.score(batch["words"], batch["upos"])
        batch_size, n = batch["head_indices"].shape
        assert scores["arc_scores"].shape == (batch_size, n + 1, n + 1)
        heads = torch.cat([batch["head_indices"].new_zeros(batch_size, 1), batch["head_indices"]], 1)
        label_scores = self.model.label_scores(scores, heads)
        assert label_scores.shape == (batch_size, n + 1, self.vocab.get_vocab_size("deprel_labels"))

    def test_trainable_parameter_count(self):
        total = count_trainable_parameters(self.model)
        assert total == sum(p.numel() for p in self.model.parameters())
        self.model.arc_scorer.weight.requires_grad_(False)
        assert count_trainable_parameters(self.model) == total - self.model.arc_scorer.weight.numel()

    def test_wrong_encoder_input_size_is_a_configuration_error(self):
        params = Params.from_file(self.param_file).get("model")
        params = copy.deepcopy(params.as_dict())
        params["encoder"]["input_size"] += 1
        with pytest.raises(ConfigurationError, match="encoder input_size"):
            Model.from_params(vocab=self.vocab, params=Params(params))

    def test_upos_model_without_upos_vocabulary_is_a_configuration_error(self):
        params = Params.from_file(self.param_file).get("model").as_dict()
        vocab = copy.deepcopy(self.vocab)
        vocab._token_to_index.pop("upos")
        vocab._index_to_token.pop("upos")
        with pytest.raises(ConfigurationError, match="no 'upos' labels"):
            Model.from_params(vocab=vocab, params=Params(params))
