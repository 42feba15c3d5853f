"""Every LD-Net config builds on the fixtures from a folder outside the clone (the tagger for every TASK and
STAGE of ldnet/tagger.jsonnet, whose missing or wrong variables are refused by name), the headline command
trains from a fresh clone's state (saying loudly that it uses the fixtures), and the data/LM switch
picks real data and trained LMs only when they exist, warning with the commands that build the LMs
when they do not."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest
from allennlp.commands.train import TrainModel
from allennlp.common import Params

from green_nlp import settings
from tests.conftest import REPO_ROOT, require_data

FOLDER = REPO_ROOT / "training_configs" / "ldnet"
TAGGER = FOLDER / "tagger.jsonnet"
LMS = sorted(p for p in FOLDER.glob("*.jsonnet") if p != TAGGER)
TASKS = {"ner": "conll2003", "wnut17": "wnut17", "chunking": "conll2000"}  # TASK -> its folder under LDNET_RUNS
STAGES = ("origin", "nolm", "prune", "finetune")
CELLS = [(task, stage) for task in TASKS for stage in STAGES]
FIXTURE_WARNING = "WARNING: green_nlp LD-Net: training the tagger on the tiny made-up fixture files"
FIXTURE_DATA = settings.LDNET_DEFAULT_FIXTURES / "data"
TOY_LM_WARNING = "WARNING: green_nlp LD-Net: no trained language models at"


@pytest.fixture
def on_fixtures(monkeypatch, tmp_path):
    """The fixture data and LMs, with the working directory outside the clone."""
    monkeypatch.setenv("LDNET_DATA", str(FIXTURE_DATA))
    monkeypatch.setenv("LDNET_FIXTURES", str(settings.LDNET_DEFAULT_FIXTURES))
    monkeypatch.setenv("LDNET_RUNS", str(tmp_path / "no-runs"))
    monkeypatch.setenv("LDNET_LM_PRESET", "tiny")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)


def _without_ldnet_settings() -> dict:
    return {k: v for k, v in os.environ.items() if not k.startswith("LDNET_")}


def _cell(task: str, stage: str) -> dict[str, str]:
    return {"TASK": task, "STAGE": stage}


def _build(config_path: Path, tmp_path: Path, ext_vars: Optional[dict[str, str]] = None) -> None:
    params = Params.from_file(str(config_path), json.dumps({"trainer.num_epochs": 1}), ext_vars=ext_vars)
    train_loop = TrainModel.from_params(params=params, serialization_dir=str(tmp_path), local_rank=0)
    assert train_loop.model is not None and train_loop.trainer is not None


def test_there_is_a_config_per_language_model_and_one_for_the_taggers():
    assert [p.name for p in LMS] == ["lm_backward.jsonnet", "lm_forward.jsonnet"] and TAGGER.exists()
    # no file per task and stage; the one exception is the design card's entry point (tests/design_card_test.py)
    assert [p.name for p in (REPO_ROOT / "training_configs").glob("ldnet_*.jsonnet")] == ["ldnet_ner.jsonnet"]


def test_the_design_card_config_is_the_ner_origin_cell(on_fixtures):
    """`training_configs/ldnet_ner.jsonnet` is TASK=ner STAGE=origin of the matrix, key for key."""
    design_card = Params.from_file(str(REPO_ROOT / "training_configs" / "ldnet_ner.jsonnet")).as_dict()
    assert design_card == Params.from_file(str(TAGGER), ext_vars=_cell("ner", "origin")).as_dict()
    assert design_card != Params.from_file(str(TAGGER), ext_vars=_cell("ner", "nolm")).as_dict()


@pytest.mark.parametrize("config_path", LMS, ids=[p.name for p in LMS])
def test_lm_config_builds(config_path: Path, tmp_path, on_fixtures):
    _build(config_path, tmp_path)


@pytest.mark.parametrize("task,stage", CELLS, ids=[f"{t}-{s}" for t, s in CELLS])
def test_every_task_and_stage_builds(task, stage, tmp_path, on_fixtures):
    _build(TAGGER, tmp_path, _cell(task, stage))


@pytest.mark.parametrize("missing", ["TASK", "STAGE"])
def test_a_missing_variable_is_named(missing, monkeypatch):
    monkeypatch.delenv(missing, raising=False)  # AllenNLP also reads the environment
    given = {k: v for k, v in _cell("ner", "origin").items() if k != missing}
    with pytest.raises(RuntimeError, match=f"undefined external variable: {missing}"):
        Params.from_file(str(TAGGER), ext_vars=given)


@pytest.mark.parametrize(
    "task,stage,message",
    [
        ("pos", "origin", "TASK must be one of chunking, ner, wnut17, not pos"),
        ("conll2003", "origin", "TASK must be one of chunking, ner, wnut17, not conll2003"),
        ("ner", "train", "STAGE must be one of finetune, nolm, origin, prune, not train"),
    ],
)
def test_a_wrong_value_lists_the_allowed_ones(task, stage, message):
    with pytest.raises(RuntimeError, match=message):
        Params.from_file(str(TAGGER), ext_vars=_cell(task, stage))


@pytest.mark.parametrize("task", TASKS)
def test_each_stage_sets_what_it_should_on_real_data(task, tmp_path, monkeypatch):
    """Real-data paths (only read here): the LMs, the archive each later stage starts from, epochs, and
    the layer-selection settings that differ by task."""
    runs = tmp_path / "runs"
    monkeypatch.setenv("LDNET_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("LDNET_RUNS", str(runs))
    monkeypatch.setenv("LDNET_LM_PRESET", "cpu")
    read = {stage: Params.from_file(str(TAGGER), ext_vars=_cell(task, stage)).as_dict() for stage in STAGES}
    dataset = runs / TASKS[task]
    assert [read[stage]["trainer"]["num_epochs"] for stage in STAGES] == [50, 50, 10, 5]
    assert "language_models" not in read["nolm"]["model"]
    assert read["nolm"]["model"]["encoder"]["input_size"] == read["origin"]["model"]["encoder"]["input_size"] - 100
    assert read["origin"]["model"]["language_models"][0]["pretrained_file"] == f"{runs}/lm_forward/model.tar.gz"
    prune = read["prune"]
    assert prune["vocabulary"]["directory"] == str(dataset / "origin" / "model.tar.gz")
    assert prune["model"]["initializer"]["regexes"][0][1]["weights_file_path"] == str(dataset / "origin/model.tar.gz")
    selection = prune["model"]["regularizer"]["regexes"][0][1]
    assert (selection["strength"], selection["target_layers"]) == {"ner": (0.05, 4)}.get(task, (0.2, 2))
    assert prune["model"]["target_lm_layers"] == selection["target_layers"]
    assert prune["trainer"]["optimizer"]["type"] == "green_projected_sgd"
    assert read["finetune"]["model"] == {"type": "from_archive", "archive_file": str(dataset / "pruned/model.tar.gz")}
    assert read["finetune"]["trainer"]["optimizer"] == {"type": "adam", "lr": 0.001}


def test_headline_command_run_elsewhere_without_data_trains_on_fixtures_and_says_so(tmp_path):
    env = _without_ldnet_settings()
    env["GREEN_NLP_DATA"] = str(tmp_path / "no-data-here")  # as in a fresh clone with no shared data
    env["LDNET_RUNS"] = str(tmp_path / "no-runs")  # and no trained LMs
    env["PYTHONPATH"] = str(REPO_ROOT)  # this clone's green_nlp, whatever the working directory
    env.update(_cell("ner", "origin"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    serialization = tmp_path / "run"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            str(TAGGER),
            "--include-package",
            "green_nlp",
            "-s",
            str(serialization),
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr.count(FIXTURE_WARNING) == 1
    assert f"set GREEN_NLP_DATA (now {tmp_path / 'no-data-here'}) to the folder holding ner/conll2003" in result.stderr
    assert TOY_LM_WARNING not in result.stderr  # toy LMs on toy data need no second warning
    config = json.loads((serialization / "config.json").read_text())
    assert config["train_data_path"] == str(FIXTURE_DATA / "ner_conll2003_train.txt")
    assert config["model"]["language_models"][0]["pretrained_file"] == str(
        settings.LDNET_DEFAULT_FIXTURES / "archives" / "lm_forward.tar.gz"
    )
    metrics = json.loads((serialization / "metrics.json").read_text())
    assert "test_f1-measure-overall" in metrics and (serialization / "model.tar.gz").exists()


def _config_and_stderr(capfd, name: str, ext_vars: Optional[dict[str, str]] = None) -> tuple:
    capfd.readouterr()
    config = Params.from_file(str(FOLDER / name), ext_vars=ext_vars).as_dict(quiet=True)
    return config, capfd.readouterr().err


def test_real_data_without_trained_lms_warns_with_the_commands_that_build_them(tmp_path, monkeypatch, capfd):
    runs = tmp_path / "my_runs"
    monkeypatch.setenv("LDNET_DATA", str(tmp_path / "data"))  # real data: only the paths are read here
    monkeypatch.setenv("LDNET_RUNS", str(runs))
    monkeypatch.setenv("LDNET_LM_PRESET", "tiny")
    monkeypatch.chdir(tmp_path)
    config, err = _config_and_stderr(capfd, "tagger.jsonnet", _cell("ner", "origin"))
    assert config["train_data_path"] == str(tmp_path / "data" / "ner" / "conll2003" / "eng.train")
    assert err.count(TOY_LM_WARNING) == 1 and "fixture files" not in err
    lm_configs = REPO_ROOT / "training_configs" / "ldnet"
    for direction in ("forward", "backward"):
        assert f"{runs}/lm_{direction}/model.tar.gz" in err
        assert (
            f"allennlp train {lm_configs}/lm_{direction}.jsonnet -s {runs}/lm_{direction} --include-package green_nlp"
        ) in err
    assert f"python -m green_nlp.dataset_readers.lm_corpus {runs}/lm_corpus" in err
    _, err = _config_and_stderr(capfd, "tagger.jsonnet", _cell("ner", "nolm"))  # no LMs: nothing to warn about
    assert "WARNING" not in err
    monkeypatch.setenv("LDNET_LM_PRESET", "cpu")  # the trained LMs: no warning, their paths under LDNET_RUNS
    config, err = _config_and_stderr(capfd, "tagger.jsonnet", _cell("ner", "origin"))
    assert "WARNING" not in err
    assert config["model"]["language_models"][1]["pretrained_file"] == f"{runs}/lm_backward/model.tar.gz"


@pytest.mark.parametrize(
    "name,ext_vars",
    [
        ("tagger.jsonnet", _cell("wnut17", "prune")),
        ("tagger.jsonnet", _cell("chunking", "finetune")),
        ("lm_backward.jsonnet", None),
    ],
)
def test_every_stage_on_fixtures_says_so(name, ext_vars, on_fixtures, capfd):
    _, err = _config_and_stderr(capfd, name, ext_vars)
    assert err.count("on the tiny made-up fixture files") == 1, err


def test_defaults_pick_real_data_and_trained_lms_only_when_present(tmp_path, monkeypatch):
    for name in ("LDNET_DATA", "LDNET_LM_PRESET", "LDNET_RUNS", "LDNET_FIXTURES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GREEN_NLP_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "ldnet").mkdir(parents=True)  # a working directory's runs/ no longer counts
    settings.export_ldnet_defaults()
    assert os.environ["LDNET_DATA"] == str(FIXTURE_DATA) and os.environ["LDNET_LM_PRESET"] == "tiny"
    assert os.environ["LDNET_RUNS"] == str(REPO_ROOT / "runs" / "ldnet")
    assert os.environ["LDNET_FIXTURES"] == str(REPO_ROOT / "fixtures" / "ldnet")
    (tmp_path / "data" / "ner" / "conll2003").mkdir(parents=True)
    (tmp_path / "data" / "ner" / "conll2003" / "eng.train").write_text("EU NNP I-NP I-ORG\n")
    monkeypatch.setenv("LDNET_RUNS", str(tmp_path / "runs" / "ldnet"))
    for path in settings.ldnet_trained_lms():
        path.parent.mkdir(parents=True)
        path.write_bytes(b"")
    for name in ("LDNET_DATA", "LDNET_LM_PRESET"):
        monkeypatch.delenv(name)
    settings.export_ldnet_defaults()
    assert os.environ["LDNET_DATA"] == str(tmp_path / "data") and os.environ["LDNET_LM_PRESET"] == "cpu"
    assert os.environ["LDNET_RUNS"] == str(tmp_path / "runs" / "ldnet")
    monkeypatch.setenv("LDNET_LM_PRESET", "tiny")  # an explicit choice wins
    settings.export_ldnet_defaults()
    assert os.environ["LDNET_LM_PRESET"] == "tiny"


def test_real_data_config_points_at_the_shared_files(monkeypatch, tmp_path):
    data = require_data("ner", "conll2003", "eng.train").parents[2]
    monkeypatch.setenv("LDNET_DATA", str(data))
    monkeypatch.setenv("LDNET_LM_PRESET", "cpu")
    monkeypatch.chdir(tmp_path)  # the paths do not depend on the working directory
    config = Params.from_file(str(TAGGER), ext_vars=_cell("ner", "origin")).as_dict()
    for key in ("train_data_path", "validation_data_path", "test_data_path"):
        assert Path(config[key]).exists()
    assert config["model"]["language_models"][1]["pretrained_file"] == str(settings.ldnet_trained_lms()[1])
    assert config["model"]["language_models"][1]["num_layers"] == 10
    chunking = Params.from_file(str(TAGGER), ext_vars=_cell("chunking", "origin")).as_dict()
    assert chunking["dataset_reader"]["split"] == "train" and chunking["validation_dataset_reader"]["dev_size"] == 1000
