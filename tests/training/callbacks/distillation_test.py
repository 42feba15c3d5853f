import copy
import json
import subprocess
import sys

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch, Vocabulary
from allennlp.models.archival import load_archive

from green_nlp.data.folds import sentence_fold
from green_nlp.settings import minilm_dir
from green_nlp.training.callbacks import ParserDistillationCallback
from green_nlp.training.callbacks.parser_distillation import check_fold_teacher
from green_nlp.training.parser_distiller import ParserDistiller, check_vocabularies_match
from tests.conftest import FIXTURES, REPO_ROOT, require_data

TEACHER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"
STUDENT_CONFIG = FIXTURES / "parser" / "student_experiment.jsonnet"


class TestDistilledStudent(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(STUDENT_CONFIG, FIXTURES / "ud" / "synthetic-tiny.conllu")
        self.teacher = load_archive(str(TEACHER)).model

    def _batch(self):
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        return batch.as_tensor_dict()

    def test_student_trains_saves_and_loads_without_the_teacher(self):
        # Runs the config's trainer, callbacks included, and reloads the archive on its own.
        self.ensure_model_can_train_save_and_load(self.param_file)

    def test_loss_is_pure_cross_entropy_when_student_is_the_teacher(self):
        teacher_as_student = copy.deepcopy(self.teacher).train()
        for module in teacher_as_student.modules():  # dropout off, as in distillation
            if isinstance(module, torch.nn.Dropout):
                module.p = 0.0
        batch = self._batch()
        ce = teacher_as_student(**batch)["loss"]
        teacher_as_student.attach_distiller(ParserDistiller(copy.deepcopy(self.teacher)))
        distilled = teacher_as_student(**batch)["loss"]
        assert distilled.item() == pytest.approx(ce.item(), abs=1e-5)  # both KL terms are zero

    def test_distillation_changes_the_loss_and_gradients_reach_every_student_parameter(self):
        self.model.train()
        batch = self._batch()
        plain = self.model(**batch)["loss"].item()
        distiller = ParserDistiller(self.teacher)
        self.model.attach_distiller(distiller)
        loss = self.model(**batch)["loss"]
        assert loss.item() > plain
        loss.backward()
        assert all(p.grad is not None for p in self.model.parameters() if p.requires_grad)
        assert all(p.grad is None and not p.requires_grad for p in self.teacher.parameters())

    def test_distillation_step_runs_the_student_label_scorer_once_with_the_same_loss(self):
        self.model.train()
        for module in self.model.modules():  # deterministic forward passes to compare
            if isinstance(module, torch.nn.Dropout):
                module.p = 0.0
        batch = self._batch()
        distiller = ParserDistiller(self.teacher)
        scores = self.model.score(batch["words"], batch["upos"])
        gold = self.model._with_root(batch["head_indices"])
        separate = self.model.loss(scores, batch["head_indices"], batch["head_tags"], batch["upos"])
        shared = self.model.loss(
            scores,
            batch["head_indices"],
            batch["head_tags"],
            batch["upos"],
            gold_label_scores=self.model.label_scores(scores, gold),
        )
        assert shared.item() == pytest.approx(separate.item(), abs=1e-6)
        calls = []
        label_scores = self.model.label_scores
        self.model.label_scores = lambda *args: calls.append(1) or label_scores(*args)
        self.model.attach_distiller(distiller)
        self.model(**batch)["loss"].backward()
        assert len(calls) == 1  # shared by the KL(label) and CE(label) terms

    def test_teacher_is_not_in_the_student_state_dict_or_parameters(self):
        before = set(self.model.state_dict())
        self.model.attach_distiller(ParserDistiller(self.teacher))
        assert set(self.model.state_dict()) == before
        teacher_ids = {id(p) for p in self.teacher.parameters()}
        assert not teacher_ids & {id(p) for p in self.model.parameters()}

    def test_cached_teacher_scores_equal_the_live_teacher(self):
        self.model.train()
        batch = self._batch()
        gold = self.model._with_root(batch["head_indices"])
        live = ParserDistiller(self.teacher, cache_teacher_outputs=False)
        cached = ParserDistiller(self.teacher, cache_teacher_outputs=True)
        args = (batch["words"], batch["upos"], gold, batch["metadata"])
        first = cached.teacher_scores(*args)
        assert len(cached.cache) == len(self.instances)
        again = cached.teacher_scores(*args)  # served from the cache
        reference = live.teacher_scores(*args)
        mask = batch["words"]["tokens"]["tokens"] != 0
        for got, expected in ((first, reference), (again, reference)):
            assert torch.allclose(got[1][:, 1:][mask], expected[1][:, 1:][mask], atol=1e-5)
            arc_mask = torch.cat([mask.new_ones(mask.size(0), 1), mask], 1)
            pairs = arc_mask.unsqueeze(2) & arc_mask.unsqueeze(1)
            assert torch.allclose(got[0][pairs], expected[0][pairs], atol=1e-5)

    def test_cache_serves_a_sentence_in_any_batch_after_the_first_epoch(self):
        def tensors(instances):
            batch = Batch(instances)
            batch.index_instances(self.vocab)
            return batch.as_tensor_dict()

        cached = ParserDistiller(self.teacher, cache_teacher_outputs=True)
        calls = []
        run_teacher = cached._run_teacher
        cached._run_teacher = lambda *args: calls.append(1) or run_teacher(*args)
        for batch in (tensors(self.instances), tensors(self.instances[:1]), tensors(self.instances[::-1])):
            cached.teacher_scores(
                batch["words"], batch["upos"], self.model._with_root(batch["head_indices"]), batch["metadata"]
            )
        # epoch 2 regroups the sentences (another padding length, another order): no teacher run
        assert len(calls) == 1

    def _other_teacher(self):
        """The fixture teacher with shifted weights: a second teacher that scores differently."""
        other = copy.deepcopy(self.teacher)
        with torch.no_grad():
            for parameter in other.parameters():
                parameter.add_(0.05 * torch.randn_like(parameter))
        return other

    def test_cross_fitted_teachers_each_score_only_their_own_fold(self):
        batch = self._batch()
        gold = self.model._with_root(batch["head_indices"])
        teachers = [self.teacher, self._other_teacher()]
        folds = [sentence_fold(m["words"], 2) for m in batch["metadata"]]
        assert set(folds) == {0, 1}  # the fixture batch has sentences of both folds
        args = (batch["words"], batch["upos"], gold, batch["metadata"])
        crossed = ParserDistiller(teachers, cache_teacher_outputs=False).teacher_scores(*args)
        single = [ParserDistiller(t, cache_teacher_outputs=False).teacher_scores(*args) for t in teachers]
        cached = ParserDistiller(teachers, cache_teacher_outputs=True)
        cached.teacher_scores(*args)
        again = cached.teacher_scores(*args)
        mask = batch["words"]["tokens"]["tokens"] != 0
        for b, fold in enumerate(folds):
            n = int(mask[b].sum())
            for got in (crossed, again):
                assert torch.allclose(got[0][b, : n + 1, : n + 1], single[fold][0][b, : n + 1, : n + 1], atol=1e-5)
                assert torch.allclose(got[1][b, : n + 1], single[fold][1][b, : n + 1], atol=1e-5)
            # and not the other teacher's scores
            assert not torch.allclose(crossed[0][b, : n + 1, : n + 1], single[1 - fold][0][b, : n + 1, : n + 1])

    def test_cross_fitted_teachers_must_read_the_same_inputs(self):
        other = self._other_teacher()
        other.text_field_embedder._token_embedders["token_characters"] = torch.nn.Identity()
        with pytest.raises(ConfigurationError, match="same token indexers"):
            ParserDistiller([self.teacher, other])

    def test_cross_fitted_distillation_trains_the_student(self):
        self.model.train()
        self.model.attach_distiller(ParserDistiller([self.teacher, self._other_teacher()]))
        loss = self.model(**self._batch())["loss"]
        loss.backward()
        assert torch.isfinite(loss)
        assert all(p.grad is not None for p in self.model.parameters() if p.requires_grad)

    def test_mismatched_vocabulary_fails_with_a_clear_message(self):
        other = Vocabulary()
        other.add_tokens_to_namespace(["root", "nsubj"], "deprel_labels")
        with pytest.raises(ConfigurationError, match="namespace 'deprel_labels'.*from_files"):
            check_vocabularies_match(self.teacher.vocab, other, str(TEACHER))

    def test_a_vocabulary_of_the_same_labels_in_another_order_names_the_moved_indices(self):
        labels = self.teacher.vocab.get_token_to_index_vocabulary("deprel_labels")
        shuffled = Vocabulary()
        shuffled._token_to_index["deprel_labels"] = {}
        shuffled._index_to_token["deprel_labels"] = {}
        shuffled.add_tokens_to_namespace(list(reversed(list(labels))), "deprel_labels")
        with pytest.raises(ConfigurationError, match=r"the same entries at other indices: '.*' is \d+ in the teacher"):
            check_vocabularies_match(self.teacher.vocab, shuffled, str(TEACHER))


def test_callback_state_round_trip_and_annealing():
    callback = ParserDistillationCallback("unused", str(TEACHER), teacher_annealing=True)
    callback.distiller = ParserDistiller(load_archive(str(TEACHER)).model)
    callback.total_batches = 10
    for _ in range(4):
        callback.on_batch(None, [], [], {}, epoch=0, batch_number=0, is_training=True)
    callback.on_batch(None, [], [], {}, epoch=0, batch_number=0, is_training=False)  # validation: no step
    assert callback.state_dict() == {"batches_seen": 4}
    assert callback.distiller.kl_weight == pytest.approx(0.6)
    assert callback.distiller.ce_weight == pytest.approx(0.4)
    restored = ParserDistillationCallback("unused", str(TEACHER), teacher_annealing=True)
    restored.distiller, restored.total_batches = callback.distiller, 10
    restored.load_state_dict(json.loads(json.dumps(callback.state_dict())))
    assert restored.batches_seen == 4


def test_bad_callback_settings_are_rejected():
    with pytest.raises(ConfigurationError, match="temperature"):
        ParserDistillationCallback("unused", str(TEACHER), temperature=0)
    with pytest.raises(ConfigurationError, match=">= 0"):
        ParserDistillationCallback("unused", str(TEACHER), kl_weight=-1)


def test_callback_needs_one_teacher_setting_and_fold_teachers_in_order():
    with pytest.raises(ConfigurationError, match="either teacher_archive or cross_fit_teacher_archives"):
        ParserDistillationCallback("unused")
    with pytest.raises(ConfigurationError, match="either teacher_archive or cross_fit_teacher_archives"):
        ParserDistillationCallback("unused", str(TEACHER), cross_fit_teacher_archives=[str(TEACHER)] * 2)
    with pytest.raises(ConfigurationError, match="at least two"):
        ParserDistillationCallback("unused", cross_fit_teacher_archives=[str(TEACHER)])
    # the fixture teacher saw every fold: it may not stand in for a fold teacher
    with pytest.raises(ConfigurationError, match="cross_fit_folds=None, leave_out_fold=None.*fold order"):
        check_fold_teacher(load_archive(str(TEACHER)), str(TEACHER), 0, 2)


def test_allennlp_train_of_a_student_from_cross_fitted_fixture_teachers(tmp_path, fold_teacher_archives):
    """A student distilled by `allennlp train` from two fold teachers (each trained without one fold
    of the fixture treebank); listing them out of order is refused before training."""
    archives = [str(path) for path in fold_teacher_archives]
    student_run = tmp_path / "student"
    _allennlp_train(
        STUDENT_CONFIG,
        student_run,
        {  # the callback's name; the fixture config has its old one
            "trainer.num_epochs": 2,
            "trainer.callbacks": [{"type": "green_parser_distillation", "cross_fit_teacher_archives": archives}],
        },
    )
    assert load_archive(str(student_run / "model.tar.gz")).model is not None
    assert not any("teacher" in key for key in torch.load(student_run / "best.th", weights_only=True))
    swapped = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            str(STUDENT_CONFIG),
            "-s",
            str(tmp_path / "swapped"),
            "-o",
            json.dumps(
                {"trainer.callbacks": [{"type": "green_distillation", "cross_fit_teacher_archives": archives[::-1]}]}
            ),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert swapped.returncode != 0
    assert "cross-fitting teacher 0" in swapped.stderr and "leave_out_fold=1" in swapped.stderr


def test_allennlp_train_of_a_student_from_the_fixture_teacher(tmp_path):
    run = tmp_path / "student"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            str(STUDENT_CONFIG),
            "-s",
            str(run),
            "-o",
            json.dumps({"trainer.num_epochs": 3}),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    weights = torch.load(run / "best.th", weights_only=True)
    assert not any("teacher" in key for key in weights)
    student = load_archive(str(run / "model.tar.gz")).model  # loads with no teacher around
    teacher = load_archive(str(TEACHER)).model
    assert sum(p.numel() for p in student.parameters()) < sum(p.numel() for p in teacher.parameters())


def _allennlp_train(config, run, overrides):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            str(config),
            "-s",
            str(run),
            "-o",
            json.dumps(overrides),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]


def test_teacher_then_distilled_student_on_real_ewt_sentences(tmp_path):
    """The whole path on real UD data: a small teacher trained on the first EWT training sentences,
    then a student distilled from its archive, evaluated on real EWT dev sentences (the same ones the
    teacher's vocabulary saw, so every relation label is known)."""
    train = require_data("ud", "UD_English-EWT", "en_ewt-ud-train.conllu")
    dev = require_data("ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    data = {
        "train_data_path": str(train),
        "validation_data_path": str(dev),
        "dataset_reader.max_instances": 120,
        "validation_dataset_reader.max_instances": 120,
        "trainer.num_epochs": 2,
    }
    teacher_run = tmp_path / "teacher"
    _allennlp_train(FIXTURES / "parser" / "teacher_experiment.jsonnet", teacher_run, data)
    teacher_archive = str(teacher_run / "model.tar.gz")
    student_run = tmp_path / "student"
    _allennlp_train(
        STUDENT_CONFIG,
        student_run,
        {
            **data,
            "vocabulary.directory": teacher_archive,
            "trainer.callbacks": [{"type": "green_distillation", "teacher_archive": teacher_archive}],
        },
    )

    assert not any("teacher" in key for key in torch.load(student_run / "best.th", weights_only=True))
    student, teacher = load_archive(str(student_run / "model.tar.gz")), load_archive(teacher_archive)
    assert student.model.vocab.get_token_to_index_vocabulary(
        "deprel_labels"
    ) == teacher.model.vocab.get_token_to_index_vocabulary("deprel_labels")
    scores_file = tmp_path / "dev_metrics.json"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "evaluate",
            str(student_run / "model.tar.gz"),
            str(dev),
            "--output-file",
            str(scores_file),
            "--include-package",
            "green_nlp",
            "-o",
            json.dumps({"validation_dataset_reader.max_instances": 120}),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    scores = json.loads(scores_file.read_text())
    assert 0.0 < scores["UAS"] <= 1.0 and 0.0 <= scores["LAS"] <= scores["UAS"]


def test_allennlp_train_of_a_student_from_a_transformer_teacher(tmp_path):
    """A teacher that also reads MiniLM word pieces (as ud_ewt_minilm_teacher.jsonnet) distils into a
    BiLSTM student: the student's training reader yields the pieces for the teacher, the student ignores
    them, and its archive predicts from its validation reader, which has none."""
    minilm = minilm_dir()
    pieces = {"type": "pretrained_transformer_mismatched", "model_name": str(minilm), "max_length": 64}
    teacher_run = tmp_path / "teacher"
    _allennlp_train(
        FIXTURES / "parser" / "teacher_experiment.jsonnet",
        teacher_run,
        {
            "trainer.num_epochs": 1,
            "dataset_reader.token_indexers.transformer": pieces,
            "validation_dataset_reader.token_indexers.transformer": pieces,
            "model.text_field_embedder.token_embedders.transformer": {**pieces, "last_layer_only": False},
            "model.encoder.input_size": 12 + 384 + 6,
        },
    )
    teacher_archive = str(teacher_run / "model.tar.gz")
    student_run = tmp_path / "student"
    _allennlp_train(
        STUDENT_CONFIG,
        student_run,
        {
            "trainer.num_epochs": 2,
            "vocabulary.directory": teacher_archive,
            "dataset_reader.token_indexers.transformer": pieces,
            "trainer.callbacks": [{"type": "green_distillation", "teacher_archive": teacher_archive}],
        },
    )

    weights = torch.load(student_run / "best.th", weights_only=True)
    assert not any("transformer" in key or "teacher" in key for key in weights)
    student = load_archive(str(student_run / "model.tar.gz"))
    assert "transformer" not in student.config["validation_dataset_reader"]["token_indexers"]
    assert set(student.model.text_field_embedder._token_embedders) == {"tokens"}
    # the training reader's extra word pieces change nothing in what the student scores
    reader = student.validation_dataset_reader
    instances = list(reader.read(str(FIXTURES / "ud" / "synthetic-tiny.conllu")))
    batch = Batch(instances)
    batch.index_instances(student.model.vocab)
    tensors = batch.as_tensor_dict()
    plain = student.model.eval().score(tensors["words"], tensors["upos"])["arc_scores"]
    with_pieces = {**tensors["words"], "transformer": {"token_ids": torch.zeros(1)}}
    assert torch.equal(student.model.score(with_pieces, tensors["upos"])["arc_scores"], plain)
