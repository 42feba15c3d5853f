import itertools

import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch
from allennlp.models import Model
from allennlp.models.archival import load_archive

from tests.conftest import FIXTURES, REPO_ROOT

CONLL = FIXTURES / "ldnet" / "data" / "ner_conll2003_train.txt"
TAGGER = REPO_ROOT / "training_configs" / "ldnet" / "tagger.jsonnet"
NO_SHUFFLE = '{"data_loader.batch_sampler.shuffle": false, "data_loader.batch_sampler.padding_noise": 0}'


@pytest.fixture(autouse=True)
def _fixture_data(monkeypatch):
    monkeypatch.setenv("LDNET_DATA", "fixtures/ldnet/data")
    monkeypatch.setenv("LDNET_LM_PRESET", "tiny")
    monkeypatch.setenv("TASK", "ner")  # ldnet/tagger.jsonnet's cell: the CoNLL-03 tagger with its LMs
    monkeypatch.setenv("STAGE", "origin")
    monkeypatch.chdir(REPO_ROOT)


class TestLdNetTagger(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(TAGGER, CONLL)

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(self.param_file, overrides=NO_SHUFFLE)

    def test_nolm_model_can_train_save_and_load(self, monkeypatch):
        monkeypatch.setenv("STAGE", "nolm")
        self.ensure_model_can_train_save_and_load(TAGGER, overrides=NO_SHUFFLE)

    def test_batch_predictions_are_consistent(self):
        self.ensure_batch_predictions_are_consistent()

    def test_lms_are_frozen_copies_of_the_archives_and_gates_start_at_one(self):
        forward = load_archive(str(FIXTURES / "ldnet" / "archives" / "lm_forward.tar.gz")).model
        lm = self.model.language_models[0]
        assert torch.equal(lm.rnn.layers[1].weight_hh_l0, forward.rnn.layers[1].weight_hh_l0)
        assert not any(p.requires_grad for p in self.model.language_models.parameters())
        assert not self.model.lm_gates.requires_grad and torch.equal(self.model.lm_gates, torch.ones(6))
        self.model.train()
        assert not lm.training  # frozen LMs never use dropout

    def test_decoded_tags_are_valid_bioes(self):
        self.model.eval()
        for output in self.model.forward_on_instances(self.instances):
            tags = self.model.make_output_human_readable({"predicted_tags": [output["predicted_tags"]]})["tags"][0]
            for previous, tag in zip(["O"] + tags, tags + ["O"]):
                if previous[0] in "BI":
                    assert tag[0] in "IE" and tag[2:] == previous[2:]
                else:
                    assert tag[0] in "OBS"

    def test_f1_at_target_ranks_fewer_layers_first_then_f1(self):
        self.model.target_lm_layers = 2
        self.model.eval()
        scores = {}
        for active in (6, 3, 2, 1):
            with torch.no_grad():
                self.model.lm_gates.zero_()
                self.model.lm_gates[:active] = 0.5
            self.model.forward_on_instances(self.instances)
            metrics = self.model.get_metrics(reset=True)
            assert metrics["active_lm_layers"] == active
            scores[active] = metrics["f1-at-target"]
            excess = max(0, active - 2)
            assert scores[active] == pytest.approx(metrics["f1-measure-overall"] - excess)
        # an epoch on target (F1 in [0, 1]) always outranks one above it, and 3 layers outrank 6
        assert min(scores[2], scores[1]) >= 0 > scores[3] > scores[6]

    def test_wrong_encoder_size_is_a_configuration_error(self):
        params = Params.from_file(self.param_file).pop("model")
        params["encoder"]["input_size"] = 3
        with pytest.raises(ConfigurationError, match="encoder input_dim is 3"):
            Model.from_params(vocab=self.vocab, params=params)

    def test_lm_dropout_acts_on_lm_features_in_training_only(self):
        params = Params.from_file(self.param_file).pop("model")
        params["lm_dropout"] = 0.5
        model = Model.from_params(vocab=self.vocab, params=params)
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        tokens = batch.as_tensor_dict()["tokens"]
        mask = tokens["tokens"]["tokens"] > 0
        model.eval()
        assert torch.equal(model.lm_features(tokens, mask), model.lm_features(tokens, mask))
        assert torch.equal(model._lm_features(tokens, mask), model.lm_features(tokens, mask))  # the first name
        model.train()
        torch.manual_seed(0)
        assert not torch.equal(model.lm_features(tokens, mask), model.lm_features(tokens, mask))
        assert not any(lm.training for lm in model.language_models)


def _sequence_score(emissions, transitions, start, end, tags):
    score = start[tags[0]] + end[tags[-1]] + sum(emissions[i, t] for i, t in enumerate(tags))
    return score + sum(transitions[a, b] for a, b in zip(tags, tags[1:]))


def test_crf_decoding_matches_brute_force_over_allowed_sequences():
    archive = load_archive(str(FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"))
    crf = archive.model.crf
    torch.manual_seed(3)
    with torch.no_grad():  # random scores, so the decoder is tested on more than one trained CRF
        crf.transitions.normal_()
        crf.start_transitions.normal_()
        crf.end_transitions.normal_()
    allowed = crf._constraint_mask
    num_tags = crf.num_tags
    for length in (1, 2, 3):
        emissions = torch.randn(1, length, num_tags)
        mask = torch.ones(1, length, dtype=torch.bool)
        decoded = archive.model._decode(emissions, mask)[0]
        best, best_tags = -float("inf"), None
        for tags in itertools.product(range(num_tags), repeat=length):
            ok = (
                bool(allowed[num_tags, tags[0]])
                and bool(allowed[tags[-1], num_tags + 1])
                and all(bool(allowed[a, b]) for a, b in zip(tags, tags[1:]))
            )
            if ok:
                score = float(
                    _sequence_score(
                        emissions[0], crf.transitions, crf.start_transitions, crf.end_transitions, tags
                    ).detach()
                )
                if score > best:
                    best, best_tags = score, list(tags)
        assert decoded == best_tags
