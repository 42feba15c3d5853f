"""Every parser and peer training config builds (reader, vocabulary, model, optimizer, scheduler, trainer), with its
real-data paths pointed at the fixtures, as allennlp-models' training_config_test does; the parameterised
student.jsonnet builds for every treebank, size and teacher choice, and its values change what they should."""

import json
from pathlib import Path

import pytest
from allennlp.common.plugins import import_plugins

from green_nlp.nn.parameters import count_trainable_parameters
from tests.conftest import REPO_ROOT
from tests.parser_configs import DISTILLATION, build_on_fixtures, read_config

import_plugins()  # the peer configs use allennlp-models components, as `allennlp train` would

PARSER = REPO_ROOT / "training_configs" / "parser"
STUDENT = PARSER / "student.jsonnet"
RAW_TEXT_STUDENT = PARSER / "ud_ewt_raw_text_student.jsonnet"  # needs SIZE; tests/training/raw_text_student_test.py
SILVER_STUDENT = (
    PARSER / "ud_ewt_silver_student.jsonnet"
)  # needs SIZE, SILVER, MODE; tests/training/silver_student_test.py
# LD-Net and n-gram DAN configs read other formats; tests/ldnet_training_config_test.py and
# tests/dan_training_config_test.py build those on their own fixtures. student.jsonnet needs its variables.
CONFIGS = sorted(
    p
    for family in ("parser", "peers")
    for p in (REPO_ROOT / "training_configs" / family).rglob("*.jsonnet")
    if p not in (STUDENT, RAW_TEXT_STUDENT, SILVER_STUDENT)
)
TREEBANKS = ["ud_ewt", "ud_tamil_ttb", "ud_wolof_wtb", "ud_chinese_gsd_v1_3"]
SIZES = ["20", "40", "60", "80"]


def student_vars(treebank: str, size: str, distilled: bool, seed: str = "1") -> dict:
    return {"TREEBANK": treebank, "SIZE": size, "DISTILLED": "true" if distilled else "false", "SEED": seed}


def sizes_of(treebank: str) -> dict:
    return json.loads((PARSER / "student_sizes" / f"{treebank}.json").read_text())["students"]


@pytest.mark.parametrize("config_path", CONFIGS, ids=[str(p.relative_to(REPO_ROOT)) for p in CONFIGS])
def test_config_builds(config_path: Path, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    train_loop = build_on_fixtures(config_path, tmp_path)
    assert train_loop.model is not None
    assert train_loop.trainer is not None


def test_there_is_a_config_per_treebank():
    names = {p.name for p in CONFIGS}
    assert {
        "ud_ewt.jsonnet",
        "ud_ewt_raw_text.jsonnet",
        "ud_tamil_ttb.jsonnet",
        "ud_wolof_wtb.jsonnet",
        "ud_chinese_gsd_v1_3.jsonnet",
        "quickstart.jsonnet",
    } <= names


def test_variants_are_parameters_not_copies():
    """The configs a user starts from, not one file per variant (issue 33: fewer than 60)."""
    files = [path for path in (REPO_ROOT / "training_configs").rglob("*") if path.is_file()]
    assert len(files) < 60, len(files)
    assert not (PARSER / "students").exists() and not (PARSER / "ablations").exists()


@pytest.mark.parametrize("treebank", TREEBANKS)
def test_every_treebank_has_four_student_sizes_at_their_fractions(treebank):
    sizes = sizes_of(treebank)
    assert sorted(sizes) == SIZES
    for fraction, size in sizes.items():
        assert abs(size["fraction"] - int(fraction) / 100) < 0.01  # the paper reached 19.2-20.5 %


@pytest.mark.parametrize("treebank", TREEBANKS)
def test_every_student_of_the_matrix_builds_with_its_sizes_and_teacher_choice(treebank, tmp_path, monkeypatch):
    """SIZE picks the dims of student_sizes/<treebank>.json (more parameters at each step); DISTILLED adds the
    teacher and switches dropout off, and nothing else: D-x and B-x have the same parameters."""
    monkeypatch.chdir(REPO_ROOT)
    counts = {}
    for size in SIZES:
        dims = sizes_of(treebank)[size]
        for distilled in (True, False):
            variables = student_vars(treebank, size, distilled)
            config = read_config(STUDENT, variables)
            model = build_on_fixtures(STUDENT, tmp_path / f"{size}_{distilled}", variables).model
            assert model.encoder.get_output_dim() == 2 * dims["lstm_hidden"], (size, distilled)
            assert (
                config["model"]["arc_mlp_dim"] == dims["arc_dim"]
                and config["model"]["label_mlp_dim"] == dims["label_dim"]
            )
            assert config["model"]["upos_embedding_dim"] == dims["upos_dim"]
            callbacks = config["trainer"].get("callbacks", [])
            assert [c["type"] in DISTILLATION for c in callbacks] == ([True] if distilled else [])
            if distilled:
                assert callbacks[0]["teacher_archive"] == f"runs/parser/{treebank}/teacher/model.tar.gz"
            assert config["model"]["mlp_dropout"] == (0.0 if distilled else 0.33)
            assert config["vocabulary"] == {
                "type": "from_files",
                "directory": f"runs/parser/{treebank}/teacher/model.tar.gz",
            }
            counts[size, distilled] = count_trainable_parameters(model)
        assert counts[size, True] == counts[size, False]
    assert [counts[size, True] for size in SIZES] == sorted({counts[size, True] for size in SIZES})


def test_the_seed_picks_allennlps_three_seeds():
    seeds = {seed: read_config(STUDENT, student_vars("ud_wolof_wtb", "20", True, seed)) for seed in ("1", "2", "3")}
    keys = ("random_seed", "numpy_seed", "pytorch_seed")
    assert not any(key in seeds["1"] for key in keys)  # AllenNLP's defaults, as the paper-style students ran
    assert [seeds["2"][key] for key in keys] == [23370, 2337, 233]
    assert [seeds["3"][key] for key in keys] == [31337, 3133, 313]
    strip = [{k: v for k, v in config.items() if k not in keys} for config in seeds.values()]
    assert strip[0] == strip[1] == strip[2]  # nothing else changes


@pytest.mark.parametrize(
    "variable,value", [("SIZE", "30"), ("TREEBANK", "ud_klingon"), ("DISTILLED", "yes"), ("SEED", "4")]
)
def test_a_value_outside_the_matrix_is_refused_by_name(variable, value):
    variables = {**student_vars("ud_ewt", "20", True), variable: value}
    with pytest.raises(RuntimeError, match=f"{variable} must be one of"):
        read_config(STUDENT, variables)


def test_a_missing_variable_is_named(monkeypatch):
    monkeypatch.delenv("SEED", raising=False)
    variables = student_vars("ud_ewt", "20", True)
    del variables["SEED"]
    with pytest.raises(RuntimeError, match="undefined external variable: SEED"):
        read_config(STUDENT, variables)
