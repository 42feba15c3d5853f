"""experiments/parser/: every run of the parser studies builds on the fixtures from variants.libsonnet, through
ablation.jsonnet and fold_teacher.jsonnet as `allennlp train` reads them; cross-fitted students list one fold
teacher per fold, in fold order; the saved ablation results name runs the table still defines."""

import json

import pytest

from experiments.parser import variants
from tests.conftest import REPO_ROOT
from tests.parser_configs import build_on_fixtures, read_config

FOLDER = REPO_ROOT / "experiments" / "parser"
ABLATIONS = variants.evaluate("std.objectFields(variants.ablations)")
FOLD_TEACHERS = variants.evaluate("std.objectFields(variants.fold_teachers)")
TREEBANK_OF = {
    "UD_English-EWT": "ud_ewt",
    "UD_Wolof-WTB": "ud_wolof_wtb",
    "UD_Tamil-TTB": "ud_tamil_ttb",
    "UD_Chinese-GSD_v1.3": "ud_chinese_gsd_v1_3",
}


@pytest.mark.parametrize("name", ABLATIONS)
def test_every_ablation_builds(name, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    train_loop = build_on_fixtures(FOLDER / "ablation.jsonnet", tmp_path, {"ABLATION": name})
    assert train_loop.model is not None and train_loop.trainer is not None


@pytest.mark.parametrize("name", FOLD_TEACHERS)
def test_every_fold_teacher_builds_and_leaves_out_the_fold_it_is_told(name, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    train_loop = build_on_fixtures(FOLDER / "fold_teacher.jsonnet", tmp_path, {"FOLD_TEACHERS": name})
    assert train_loop.model is not None
    reader = read_config(FOLDER / "fold_teacher.jsonnet", {"FOLD_TEACHERS": name})["dataset_reader"]
    assert 0 == reader["leave_out_fold"] < reader["cross_fit_folds"]


def test_an_unknown_name_is_refused():
    with pytest.raises(RuntimeError, match="ABLATION must name one of"):
        read_config(FOLDER / "ablation.jsonnet", {"ABLATION": "ud_ewt_d20_typo"})


@pytest.mark.parametrize(
    "teachers,folder",
    [("ud_wolof_wtb", "fold_teachers"), ("ud_ewt", "fold_teachers"), ("ud_ewt_minilm", "minilm_fold_teachers")],
)
def test_cross_fit_students_list_one_teacher_per_fold_in_fold_order(teachers, folder):
    treebank = teachers.replace("_minilm", "")
    folds = read_config(FOLDER / "fold_teacher.jsonnet", {"FOLD_TEACHERS": teachers})["dataset_reader"][
        "cross_fit_folds"
    ]
    students = [
        name
        for name in ABLATIONS
        if name.startswith(treebank + "_")
        and "cross_fit" in name
        and ("_minilm_" in name) == teachers.endswith("minilm")
    ]
    assert students
    for name in students:
        (callback,) = read_config(FOLDER / "ablation.jsonnet", {"ABLATION": name})["trainer"]["callbacks"]
        archives = callback["cross_fit_teacher_archives"]
        assert archives == [f"runs/parser/{treebank}/{folder}/fold{i}/model.tar.gz" for i in range(folds)], name


def test_budget_runs_keep_their_epochs_and_the_others_take_the_scripts_cap():
    own = {name for name in variants.ablation_names("ud_wolof_wtb") if variants.sets_own_epochs("ud_wolof_wtb", name)}
    assert own == {"b20_60_epochs", "d20_60_epochs", "d20_dropout_60_epochs", "d20_dropout_100_epochs"}
    assert variants.sets_own_epochs("ud_ewt", "minilm_teacher") and variants.sets_own_epochs(
        "ud_ewt", "d20_minilm_cross_fit_transfer_seed3"
    )
    for name in own:
        config = read_config(FOLDER / "ablation.jsonnet", {"ABLATION": f"ud_wolof_wtb_{name}"})
        assert config["trainer"]["num_epochs"] == int(name.split("_")[-2])


def test_every_scored_ablation_is_still_defined():
    """The runs behind experiments/parser/results/parser_ablations.json can be trained again by name."""
    results = json.loads((FOLDER / "results" / "parser_ablations.json").read_text())["treebanks"]
    scored = {
        (treebank, name)
        for treebank, rows in results.items()
        for group in (rows["models"], rows.get("earlier_teacher_run", {}).get("models", {}))
        for name in group
        if name != "full" and not name.startswith(("D-", "B-"))
    }
    assert scored
    missing = [
        f"{TREEBANK_OF[treebank]}_{name}"
        for treebank, name in scored
        if f"{TREEBANK_OF[treebank]}_{name}" not in ABLATIONS
    ]
    assert not missing
