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
        self.set_up_model(FIXTURES / "parser" / "experiment.jsonnet", FIXTURES / "ud" / "synthetic-tiny.conllu")

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

    # ------------------------------------------------------- training metrics
    def _without_dropout(self):
        """Dropout off, so a training-mode forward scores exactly what `score()` gives here."""
        for module in self.model.modules():
            if isinstance(module, torch.nn.Dropout):
                module.p = 0.0
            if isinstance(module, torch.nn.LSTM):
                module.dropout = 0.0

    def _fit(self, batch, steps=30):
        optimizer = torch.optim.Adam(self.model.parameters(), lr=0.05)
        self.model.train()
        for _ in range(steps):
            optimizer.zero_grad()
            self.model(**batch)["loss"].backward()
            optimizer.step()

    def _hand_attachment(self, batch, heads_of):
        """UAS and LAS by loops over words: heads from `heads_of(arc_scores, b, i, n)`, labels the
        best of the all-pairs label scores for that head."""
        with torch.no_grad():
            scores = self.model.score(batch["words"], batch["upos"])
            # (batch, labels, dep, head): every pair scored, not the model's gather-then-score path
            all_labels = self.model.label_scorer(scores["label_dep"], scores["label_head"])
        arc = scores["arc_scores"].tolist()
        gold_heads, gold_tags = batch["head_indices"].tolist(), batch["head_tags"].tolist()
        lengths = (scores["mask"].sum(-1) - 1).tolist()
        unlabeled = labeled = words = 0
        for b, n in enumerate(lengths):
            heads = heads_of(arc, b, n)
            for i in range(1, n + 1):
                label = int(all_labels[b, :, i, heads[i - 1]].argmax())
                unlabeled += heads[i - 1] == gold_heads[b][i - 1]
                labeled += heads[i - 1] == gold_heads[b][i - 1] and label == gold_tags[b][i - 1]
                words += 1
        return unlabeled / words, labeled / words

    @staticmethod
    def _best_heads(arc, b, n):
        return [max((h for h in range(n + 1) if h != i), key=lambda h: arc[b][i][h]) for i in range(1, n + 1)]

    @pytest.mark.parametrize("distilled", [False, True])
    def test_training_batches_score_greedy_heads(self, distilled):
        """Training metrics used to be 0.0 (nothing decoded in training); now greedy heads and labels."""
        from green_nlp.training.parser_distiller import ParserDistiller

        self._without_dropout()
        batch = self.dataset.as_tensor_dict()
        self._fit(batch)
        if distilled:
            self.model.attach_distiller(ParserDistiller(copy.deepcopy(self.model)))
        self.model.get_metrics(reset=True)
        self.model.train()
        output = self.model(**batch)
        assert torch.isfinite(output["loss"]) and "heads" not in output
        metrics = self.model.get_metrics(reset=True)
        uas, las = self._hand_attachment(batch, self._best_heads)
        assert metrics["UAS"] == pytest.approx(uas) and metrics["LAS"] == pytest.approx(las)
        assert 0.0 < las <= uas
        assert 0.0 < metrics["upos_accuracy"] <= 1.0

    def test_validation_scores_the_decoded_trees(self):
        batch = self.dataset.as_tensor_dict()
        self.model.eval()
        with torch.no_grad():
            scores = self.model.score(batch["words"], batch["upos"])
            decoded = self.model.decode(scores)
            self.model.get_metrics(reset=True)
            self.model(**batch)
        trees = decoded["heads"].tolist()
        metrics = self.model.get_metrics(reset=True)
        uas, las = self._hand_attachment(batch, lambda arc, b, n: trees[b][:n])
        assert metrics["UAS"] == pytest.approx(uas) and metrics["LAS"] == pytest.approx(las)
        # the untrained model's greedy heads are not all trees, so scoring them would differ
        arc = scores["arc_scores"].tolist()
        lengths = decoded["mask"].sum(-1).tolist()
        assert any(self._best_heads(arc, b, n) != trees[b][:n] for b, n in enumerate(lengths))


def test_greedy_attachments_score_by_hand():
    """Hand-set scores. Sentence 1: gold heads 2, 0, 2; greedy heads 2, 1, 2 (a cycle, kept: no
    MST). Sentence 2 (padded): gold and greedy heads 0, 1. The label scorer gives label k at a head
    whose `label_head` row is hot at k, so by hand UAS = 4/5 and LAS = 2/5 (labels 1, -, 1 against
    gold 1, 0, 2; labels 0, 0 against gold 0, 3)."""
    from allennlp.data import Vocabulary
    from allennlp.training.metrics import AttachmentScores

    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["NOUN", "VERB"], "upos")
    vocab.add_tokens_to_namespace(["root", "nsubj", "obj", "det"], "deprel_labels")
    params = Params(
        {
            "text_field_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 2}}},
            "encoder": {"type": "lstm", "input_size": 4, "hidden_size": 2, "bidirectional": True},
            "upos_embedding_dim": 2,
            "arc_mlp_dim": 2,
            "label_mlp_dim": 4,
        }
    )
    model = Model.by_name("green_biaffine_parser").from_params(vocab=vocab, params=params)
    with torch.no_grad():
        model.label_scorer.weight.zero_()
        for label in range(4):
            model.label_scorer.weight[label, -1, label] = 1.0  # the dependent's bias unit x the head's unit k
    low = -1e4
    arc = torch.full((2, 4, 4), low)
    arc[0, 1] = torch.tensor([1.0, low, 3.0, 2.0])
    arc[0, 2] = torch.tensor([2.0, 4.0, low, 0.0])
    arc[0, 3] = torch.tensor([0.0, 1.0, 5.0, low])
    arc[1, 1] = torch.tensor([3.0, low, 1.0, low])
    arc[1, 2] = torch.tensor([0.0, 2.0, low, low])
    hot = torch.eye(4) * 5.0
    scores = {
        "arc_scores": arc,
        "label_dep": torch.zeros(2, 4, 4),
        "label_head": torch.stack([hot[[0, 3, 1, 2]], hot[[0, 0, 2, 3]]]),  # position -> its label
        "mask": torch.tensor([[True] * 4, [True, True, True, False]]),
    }
    gold_heads = torch.tensor([[2, 0, 2], [0, 1, 0]])
    gold_tags = torch.tensor([[1, 0, 2], [0, 3, 0]])
    gold_label_scores = model.label_scores(scores, model._with_root(gold_heads))

    greedy = model.greedy_attachments(scores, gold_label_scores)
    assert greedy["heads"].tolist() == [[2, 1, 2], [0, 1, 0]]
    assert greedy["head_tags"].tolist()[0] == [1, 0, 1] and greedy["head_tags"].tolist()[1][:2] == [0, 0]
    assert greedy["mask"].tolist() == [[True] * 3, [True, True, False]]
    metric = AttachmentScores()
    metric(greedy["heads"], greedy["head_tags"], gold_heads, gold_tags, greedy["mask"])
    figures = metric.get_metric(reset=True)
    assert figures["UAS"] == pytest.approx(4 / 5) and figures["LAS"] == pytest.approx(2 / 5)
    # the same figures as with the labels of the greedy heads themselves
    at_greedy = model.label_scores(scores, model._with_root(greedy["heads"])).argmax(-1)[:, 1:]
    metric(greedy["heads"], at_greedy, gold_heads, gold_tags, greedy["mask"])
    assert metric.get_metric(reset=True) == figures
    tree = model.decode(scores)["heads"].tolist()[0]
    assert tree != [2, 1, 2] and tree.count(0) == 1  # decoding proper breaks the cycle


def test_metrics_over_sentences_without_trees_are_refused_not_zero(tmp_path):
    """`allennlp evaluate` on a file whose HEAD and DEPREL are _ printed UAS 0.0 and LAS 0.0."""
    from allennlp.models.archival import load_archive

    from green_nlp.dataset_readers import read_conllu

    archive = load_archive(str(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"))
    model, reader = archive.model, archive.validation_dataset_reader
    model.eval()
    sentence = next(iter(read_conllu(FIXTURES / "ud" / "synthetic-dev.conllu")))

    def instance(with_tree: bool):
        trees = (sentence.heads, sentence.deprels) if with_tree else ()
        made = reader.text_to_instance(sentence.words, sentence.upos, *trees)
        reader.apply_token_indexers(made)
        return made

    model.forward_on_instances([instance(False)])
    with pytest.raises(ConfigurationError, match="^no sentence of the data has a gold tree"):
        model.get_metrics(reset=True)
    model.forward_on_instances([instance(False)])
    model.forward_on_instances([instance(True)])
    assert model.get_metrics(reset=True)["UAS"] > 0  # some words scored: the metrics stand
    model.get_metrics(reset=True)  # nothing run since the reset: nothing to refuse
