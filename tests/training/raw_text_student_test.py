"""training_configs/parser/ud_ewt_raw_text_student.jsonnet: a raw-text parser (words + characters, a UPOS
head, no UPOS input) distilled from a gold-UPOS teacher. The teacher reads the UPOS column the student
never sees, so these tests check that the two inputs meet: the config builds at every size as the
shipped raw-text model plus the teacher, a batch gets the KL terms, and `allennlp train` runs it."""

import json
import os
import subprocess
import sys

import pytest
import torch
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.dataset_readers.conllu_dependencies import DEPREL_NAMESPACE, UPOS_NAMESPACE
from green_nlp.nn.parameters import count_trainable_parameters
from green_nlp.training.parser_distiller import ParserDistiller
from tests.conftest import FIXTURES, REPO_ROOT
from tests.parser_configs import DISTILLATION, TEACHER_ARCHIVE, build_on_fixtures, fixture_overrides, read_config

PARSER = REPO_ROOT / "training_configs" / "parser"
CONFIG = PARSER / "ud_ewt_raw_text_student.jsonnet"
NO_TEACHER = PARSER / "ud_ewt_raw_text_small.jsonnet"  # the same model at the D-20 dims, trained alone
SIZES = json.loads((PARSER / "student_sizes" / "ud_ewt.json").read_text())["students"]
TEACHER_RUN = "runs/parser/ud_ewt/teacher/model.tar.gz"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_size_builds_as_a_raw_text_parser_with_the_teacher(size, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    config = read_config(CONFIG, {"SIZE": size})
    model = build_on_fixtures(CONFIG, tmp_path, {"SIZE": size}).model
    dims = SIZES[size]
    assert model.encoder.get_output_dim() == 2 * dims["lstm_hidden"]
    assert config["model"]["arc_mlp_dim"] == dims["arc_dim"] and config["model"]["label_mlp_dim"] == dims["label_dim"]
    assert model.upos_embedding is None and config["model"]["predict_upos"]  # raw text: UPOS out, not in
    assert "token_characters" in model.text_field_embedder._token_embedders
    assert config["model"]["mlp_dropout"] == config["model"]["embedding_dropout"] == 0.33  # kept: see the config
    [callback] = config["trainer"]["callbacks"]
    assert callback["type"] in DISTILLATION and callback["teacher_archive"] == TEACHER_RUN
    # the teacher's words and labels, extended by the character namespace the teacher does not have
    assert config["vocabulary"] == {"type": "extend", "directory": TEACHER_RUN}


def test_sizes_grow_and_d20_is_the_shipped_model_plus_the_teacher(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    counts = [
        count_trainable_parameters(build_on_fixtures(CONFIG, tmp_path / size, {"SIZE": size}).model)
        for size in sorted(SIZES)
    ]
    assert counts == sorted(set(counts))
    student, alone = read_config(CONFIG, {"SIZE": "20"}), read_config(NO_TEACHER)
    for config in (student, alone):
        config.pop("vocabulary", None)
        config["trainer"].pop("callbacks", None)
    assert student == alone  # only the teacher and its vocabulary differ: a fair D-20 vs B-20


def test_a_size_outside_the_list_is_refused_by_name():
    with pytest.raises(RuntimeError, match="SIZE must be one of 20, 40, 60, 80, not 30"):
        read_config(CONFIG, {"SIZE": "30"})


def test_a_gold_upos_teacher_gives_targets_to_a_student_that_reads_raw_text(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    train_loop = build_on_fixtures(CONFIG, tmp_path, {"SIZE": "20"})
    student = train_loop.model.train()
    teacher = load_archive(str(TEACHER_ARCHIVE)).model
    assert teacher.upos_embedding is not None  # the fixture teacher reads gold UPOS
    train_loop.trainer.data_loader.index_with(student.vocab)
    batch = next(iter(train_loop.trainer.data_loader))
    torch.manual_seed(0)
    plain = student(**batch)["loss"].item()
    student.attach_distiller(ParserDistiller(teacher))
    torch.manual_seed(0)
    loss = student(**batch)["loss"]
    assert loss.item() > plain  # the KL terms are there
    loss.backward()
    assert all(p.grad is not None for p in student.parameters() if p.requires_grad)


def test_allennlp_train_of_the_raw_text_student_then_raw_text_prediction(tmp_path):
    run = tmp_path / "d20"
    fixtures_data = {
        **fixture_overrides(read_config(CONFIG, {"SIZE": "20"})),
        "train_data_path": str(FIXTURES / "ud" / "synthetic-train.conllu"),
        "validation_data_path": str(FIXTURES / "ud" / "synthetic-dev.conllu"),
        "test_data_path": str(FIXTURES / "ud" / "synthetic-dev.conllu"),
        "trainer.num_epochs": 2,
    }
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", "train", str(CONFIG), "-s", str(run)]
        + ["-o", json.dumps(fixtures_data), "--include-package", "green_nlp"],
        cwd=REPO_ROOT,
        env={**os.environ, "SIZE": "20"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert not any("teacher" in key for key in torch.load(run / "best.th", weights_only=True))
    archive = load_archive(str(run / "model.tar.gz"))  # loads with no teacher around
    teacher_vocab = load_archive(str(TEACHER_ARCHIVE)).model.vocab
    for namespace in (DEPREL_NAMESPACE, UPOS_NAMESPACE, "tokens"):
        assert archive.model.vocab.get_token_to_index_vocabulary(
            namespace
        ) == teacher_vocab.get_token_to_index_vocabulary(namespace)
    assert archive.model.vocab.get_vocab_size("token_characters") > 2
    predictor = Predictor.from_archive(archive, "green_dependency_parser")
    [sentence] = predictor.predict_json(predictor.load_line("the cat sat on the mat ."))["sentences"]
    assert len(sentence["upos"]) == len(sentence["words"]) == 7 and all(sentence["upos"])  # tagged from raw text
