import json
import sys

import pytest
import torch
from allennlp.commands import main
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch, Vocabulary
from allennlp.models.archival import load_archive

from green_nlp.models.ngram_dan import NgramDan
from green_nlp.training.logit_distiller import LogitDistillationInput, LogitDistiller
from tests.conftest import REPO_ROOT
from tests.dan_helpers import DAN_CONFIG, DAN_FIXTURES, DAN_KD_CONFIG, TEACHER_CACHE


class TestNgramDan(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(DAN_CONFIG, DAN_FIXTURES / "sst2_train.tsv")

    def _batch(self, instances=None):
        batch = Batch(instances or self.instances[:6])
        batch.index_instances(self.vocab)
        return batch.as_tensor_dict()

    def test_trains_saves_and_loads(self):
        self.ensure_model_can_train_save_and_load(self.param_file)

    def test_batch_predictions_are_consistent(self):
        self.ensure_batch_predictions_are_consistent()

    def test_embedding_gradient_is_sparse_and_touches_only_used_rows(self):
        self.model.train()
        batch = self._batch()
        self.model(**batch)["loss"].backward()
        grad = self.model.ngram_embedding.weight.grad
        assert grad.is_sparse
        touched = set(grad.coalesce().indices()[0].tolist())
        assert touched == set(batch["ngrams"][batch["ngrams"] != 0].tolist())
        assert all(not p.grad.is_sparse for n, p in self.model.named_parameters() if n != "ngram_embedding.weight")

    def test_mean_pooling_ignores_padding(self):
        self.model.eval()
        ngrams = self._batch()["ngrams"][:1]
        ids = ngrams[ngrams != 0]
        padded = torch.cat([ngrams, torch.zeros(1, 7, dtype=torch.long)], 1)
        expected = self.model.ngram_embedding.weight[ids].mean(0)
        assert torch.allclose(self.model.encode(padded)[0], expected, atol=1e-6)

    def test_wrong_sizes_are_rejected(self):
        with pytest.raises(ConfigurationError, match="has no n-grams"):
            NgramDan(Vocabulary())
        with pytest.raises(ConfigurationError, match="dropout"):
            NgramDan(self.vocab, embedding_dim=4, ngram_dropout=1.0)

    def test_namespaces_are_public_and_read_only(self):
        assert (self.model.label_namespace, self.model.ngram_namespace) == ("labels", "ngrams")
        with pytest.raises(AttributeError):
            self.model.label_namespace = "other"  # type: ignore[misc]


def test_namespaces_follow_the_configured_names():
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["good", "bad"], "my_ngrams")
    vocab.add_tokens_to_namespace(["a", "b"], "my_labels")
    model = NgramDan(vocab, embedding_dim=3, ngram_namespace="my_ngrams", label_namespace="my_labels")
    assert (model.label_namespace, model.ngram_namespace) == ("my_labels", "my_ngrams")
    assert model._label_namespace == "my_labels"  # the private name still works inside the class


class TestDistillationLoss:
    def test_kl_term_is_zero_when_student_matches_teacher_and_scaled_by_t_squared(self):
        logits = torch.tensor([[2.0, -1.0, 0.5], [0.1, 0.2, 0.3]])
        assert LogitDistiller(temperature=3.0).loss(
            LogitDistillationInput(logits, logits.clone())
        ).item() == pytest.approx(0.0, abs=1e-7)
        teacher = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, -1.0]])
        t = 2.0
        p = (teacher / t).softmax(-1)
        expected = (p * (p.log() - (logits / t).log_softmax(-1))).sum(-1).mean() * t * t
        assert LogitDistiller(temperature=t).loss(LogitDistillationInput(logits, teacher)).item() == pytest.approx(
            expected.item(), rel=1e-5
        )

    def test_weights_combine_kl_and_ce_only_when_both_are_given(self):
        logits, teacher = torch.randn(4, 2), torch.randn(4, 2)
        labels = torch.tensor([0, 1, 1, 0])
        ce = torch.nn.functional.cross_entropy(logits, labels).item()
        kl = LogitDistiller().loss(LogitDistillationInput(logits, teacher)).item()
        assert LogitDistiller().loss(LogitDistillationInput(logits, None, labels)).item() == pytest.approx(ce)
        both = LogitDistiller(kl_weight=0.3, ce_weight=2.0).loss(LogitDistillationInput(logits, teacher, labels)).item()
        assert both == pytest.approx(0.3 * kl + 2.0 * ce, rel=1e-5)
        with pytest.raises(ConfigurationError, match="temperature"):
            LogitDistiller(temperature=0)

    def test_model_uses_the_attached_distiller(self):
        vocab = Vocabulary()
        vocab.add_tokens_to_namespace(["a", "b", "c"], "ngrams")
        vocab.add_tokens_to_namespace(["neg", "pos"], "labels")
        model = NgramDan(vocab, embedding_dim=4)
        ngrams = torch.tensor([[2, 3, 0], [4, 0, 0]])
        teacher = torch.tensor([[3.0, -3.0], [-3.0, 3.0]])
        default = model(ngrams, teacher_logits=teacher)["loss"]
        model.attach_distiller(LogitDistiller(temperature=4.0))
        hot = model(ngrams, teacher_logits=teacher)["loss"]
        logits = model(ngrams)["logits"]
        assert hot.item() == pytest.approx(
            LogitDistiller(temperature=4.0).loss(LogitDistillationInput(logits, teacher)).item(), rel=1e-5
        )
        assert hot.item() != pytest.approx(default.item())
        model.attach_distiller(None)
        assert model(ngrams, teacher_logits=teacher)["loss"].item() == pytest.approx(default.item(), rel=1e-5)
        assert set(model.get_metrics()) == {"teacher_agreement"}


def _allennlp(monkeypatch, *args: str) -> None:
    """The real `allennlp` command line, in this process (a new process would spend its time importing)."""
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setattr(sys, "argv", ["allennlp", *args, "--include-package", "green_nlp"])
    main()


def test_allennlp_train_of_dan_kd_then_predict_raw_text(tmp_path, monkeypatch):
    run = tmp_path / "kd"
    _allennlp(monkeypatch, "train", str(DAN_KD_CONFIG), "-s", str(run))
    metrics = json.loads((run / "metrics.json").read_text())
    assert "training_teacher_agreement" in metrics and "validation_accuracy" in metrics
    config = json.loads((run / "config.json").read_text())
    assert config["trainer"]["callbacks"][0] == {"type": "green_logit_distillation", "temperature": 2.0}
    assert config["train_data_path"].endswith(TEACHER_CACHE.name)
    output = tmp_path / "predictions.jsonl"
    _allennlp(
        monkeypatch,
        "predict",
        str(run / "model.tar.gz"),
        str(DAN_FIXTURES / "raw_text.txt"),
        "--output-file",
        str(output),
        "--silent",
    )
    records = [json.loads(line) for line in output.read_text().splitlines()]
    assert len(records) == 3  # allennlp predict skips the blank line
    model = load_archive(str(run / "model.tar.gz")).model
    names = [model.vocab.get_token_from_index(i, "labels") for i in range(2)]
    for record in records:
        assert record["label_names"] == names
        assert record["label"] == names[max(range(2), key=lambda i: record["probs"][i])]
        assert sum(record["probs"]) == pytest.approx(1.0, abs=1e-5)
    assert records[2]["num_ngrams"] == 0 and records[0]["num_ngrams"] > 0
