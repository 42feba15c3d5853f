"""The parser's optional LEMMA / FEATS / XPOS heads: reader targets, training, decoding, settings."""

import copy

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

from green_nlp.dataset_readers.conllu_dependencies import ConlluDependenciesReader
from green_nlp.runtime.lemma_rules import make_rule
from tests.conftest import FIXTURES

DATA = FIXTURES / "ud" / "synthetic-tiny-ud-columns.conllu"
CONFIG = FIXTURES / "parser" / "experiment_ud_heads.jsonnet"


class TestParserWithUdHeads(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(CONFIG, DATA)

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(self.param_file)

    def test_batch_predictions_are_consistent(self):
        self.ensure_batch_predictions_are_consistent()

    def test_reader_gives_lemma_scripts_feats_and_xpos(self):
        instance = self.instances[0]
        words = [token.text for token in instance["words"].tokens]
        source = instance["metadata"]["sentence"]
        assert instance["lemma_rules"].labels == [make_rule(w, lemma) for w, lemma in zip(words, source.lemmas)]
        assert instance["feats"].labels == source.feats
        assert instance["xpos"].labels == source.xpos
        assert "Number=Sing|Person=3|Tense=Pres|VerbForm=Fin" in source.feats

    def test_predictions_carry_lemmas_from_the_scripts_feats_and_xpos(self):
        self.model.eval()
        vocab = self.model.vocab
        strip_s = vocab.get_token_index(make_rule("sees", "see"), "lemma_rule_labels")
        with torch.no_grad():  # make every word's best script "strip one s"
            head = self.model.extra_heads["lemma_rules"]
            head.weight.zero_()
            head.bias.zero_()
            head.bias[strip_s] = 1.0
        output = self.model.forward_on_instances(self.instances[:2])
        for instance, prediction in zip(self.instances, output):
            words = [token.text for token in instance["words"].tokens]
            assert prediction["predicted_lemmas"] == [w[:-1] if len(w) > 1 else w for w in words]
            assert set(prediction["predicted_feats"]) <= set(vocab.get_token_to_index_vocabulary("feats_labels"))
            assert len(prediction["predicted_xpos"]) == len(words)

    def test_heads_learn_and_are_scored(self):
        model = self.model
        optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
        batch = self.dataset.as_tensor_dict()
        model.train()
        for _ in range(40):
            optimizer.zero_grad()
            model(**batch)["loss"].backward()
            optimizer.step()
        model.eval()
        model.get_metrics(reset=True)
        model(**batch)
        metrics = model.get_metrics()
        for field in ("lemma_rules", "feats", "xpos"):
            assert metrics[f"{field}_accuracy"] > 0.9

    def test_loss_weights_scale_each_head_and_unseen_tags_leave_the_loss(self):
        self.model.eval()
        batch = self.dataset.as_tensor_dict()
        scores = self.model.score(batch["words"])
        args = (scores, batch["head_indices"], batch["head_tags"], batch["upos"])
        base = self.model.loss(*args)
        with_feats = self.model.loss(*args, extra_targets={"feats": batch["feats"]})
        self.model._extra_loss_weights["feats"] = 1.0
        assert with_feats > base
        doubled = self.model.loss(*args, extra_targets={"feats": batch["feats"]})
        # the fixture config weighs feats 0.5: weight 1 doubles its term
        assert torch.isclose(doubled - base, 2 * (with_feats - base))
        unseen = self.model.loss(*args, extra_targets={"feats": torch.full_like(batch["feats"], -1)})
        assert torch.isclose(unseen, base)


def _params(**model):
    params = Params.from_file(str(CONFIG))
    params["model"].update(model)
    return params


def test_heads_are_off_by_default_and_old_state_dicts_still_fit(tmp_path):
    params = Params.from_file(str(CONFIG)).duplicate()
    reader = ConlluDependenciesReader(use_gold_upos=True, read_columns=["lemmas", "feats", "xpos"])
    from allennlp.data import Vocabulary

    vocab = Vocabulary.from_instances(reader.read(str(DATA)))
    model_params = params["model"].as_dict()
    for key in ("predict_lemmas", "predict_feats", "predict_xpos", "feats_loss_weight"):
        model_params.pop(key)
    plain = Model.from_params(vocab=vocab, params=Params(copy.deepcopy(model_params)))
    assert len(plain.extra_heads) == 0
    assert not any(name.startswith("extra_heads") for name in plain.state_dict())
    assert "lemma_rules_accuracy" not in plain.get_metrics()


def test_a_head_without_its_column_in_the_vocabulary_is_refused():
    reader = ConlluDependenciesReader(use_gold_upos=True)  # no read_columns
    from allennlp.data import Vocabulary

    vocab = Vocabulary.from_instances(reader.read(str(DATA)))
    model_params = Params.from_file(str(CONFIG))["model"].as_dict()
    with pytest.raises(ConfigurationError, match="predict_lemmas.*read_columns"):
        Model.from_params(vocab=vocab, params=Params(model_params))


def test_reader_refuses_an_unknown_column():
    with pytest.raises(ConfigurationError, match="read_columns may hold"):
        ConlluDependenciesReader(read_columns=["lemma"])
