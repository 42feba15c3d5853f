"""LD-Net tagger archives load and predict from any folder, with the data and the LM archives gone.

The working directory is a temporary folder outside the clone, the archive is copied to another
one, and GREEN_NLP_DATA and the LD-Net settings point at an empty folder. Checked: the committed
fixture tagger (its config still names its LM archives by paths relative to the clone, as every
archive written before the fix does), a tagger trained here by `allennlp train` from a copy of the
fixtures that is deleted afterwards (its config names LM archives that no longer exist), and the
pruned tagger `green-prune-ldnet` writes from it; through `allennlp predict`, `Predictor.from_path`
and the spaCy `green_nlp_ner` component.
"""

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
import spacy
import torch
from allennlp.models.archival import CONFIG_NAME, archive_model, load_archive
from allennlp.predictors import Predictor

import green_nlp.integrations  # noqa: F401  (declares the spaCy factories)
from green_nlp.commands.green_prune_ldnet import prune_archive
from tests.conftest import FIXTURES, REPO_ROOT

COMMITTED = FIXTURES / "ldnet" / "archives" / "tagger_origin.tar.gz"
TEXT = "Angela Merkel visited Paris on Monday . Shares in BMW rose 5 percent ."
LDNET_SETTINGS = ("GREEN_NLP_DATA", "LDNET_DATA", "LDNET_RUNS", "LDNET_FIXTURES")


def _isolated_env(empty: Path, **extra: str) -> dict[str, str]:
    """A subprocess environment with no data and no LD-Net runs to be found, importing this clone."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LDNET_")}
    env.update({name: str(empty) for name in LDNET_SETTINGS})
    env["PYTHONPATH"] = str(REPO_ROOT)  # this clone's green_nlp, whatever the working directory
    env.update(extra)
    return env


def _archived_lm_paths(archive: Path) -> list[str]:
    with tarfile.open(archive) as tar:
        config = json.load(tar.extractfile(CONFIG_NAME))
    return [lm.get("pretrained_file") for lm in config["model"].get("language_models", [])]


def _moved(archive: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(archive, folder / "tagger.tar.gz"))


def _predict_cli(archive: Path, cwd: Path, env: dict[str, str]) -> list[dict]:
    cwd.mkdir(parents=True, exist_ok=True)
    (cwd / "input.txt").write_text(TEXT + "\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "predict",
            str(archive),
            "input.txt",
            "--output-file",
            "out.jsonl",
            "--silent",
            "--include-package",
            "green_nlp",
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return [json.loads(line) for line in (cwd / "out.jsonl").read_text().splitlines()]


@pytest.fixture
def elsewhere(tmp_path, monkeypatch) -> Path:
    """This process's working directory outside the clone, the settings at an empty folder."""
    empty = tmp_path / "empty"
    empty.mkdir()
    for name in LDNET_SETTINGS:
        monkeypatch.setenv(name, str(empty))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> dict[str, Any]:
    """A tagger trained by `allennlp train` from outside the clone on a copy of the LD-Net fixtures
    (data and LM archives), which is then deleted."""
    root = tmp_path_factory.mktemp("portable")
    copy = root / "copy" / "fixtures" / "ldnet"  # the configs know fixtures by this path ending
    shutil.copytree(FIXTURES / "ldnet", copy)
    empty = root / "empty"
    empty.mkdir()
    run = root / "run"
    (root / "work").mkdir()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            str(REPO_ROOT / "training_configs" / "ldnet" / "tagger.jsonnet"),
            "-s",
            str(run),
            "--include-package",
            "green_nlp",
        ],
        cwd=root / "work",
        env=_isolated_env(empty, LDNET_FIXTURES=str(copy), LDNET_DATA=str(copy / "data"), TASK="ner", STAGE="origin"),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    shutil.rmtree(root / "copy")
    return {"archive": run / "model.tar.gz", "root": root, "empty": empty, "stderr": result.stderr}


def test_committed_tagger_predicts_from_another_folder(elsewhere, tmp_path):
    assert all(path and not Path(path).is_absolute() for path in _archived_lm_paths(COMMITTED))
    moved = _moved(COMMITTED, tmp_path / "moved")
    predictor = Predictor.from_path(str(moved), "green_sentence_tagger")
    expected = predictor.predict_json({"sentence": TEXT})
    assert len(expected["tags"]) == 14
    # the LM weights come from the tagger's own weights file
    lm = load_archive(str(FIXTURES / "ldnet" / "archives" / "lm_forward.tar.gz")).model
    assert torch.equal(predictor._model.language_models[0].rnn.layers[1].weight_hh_l0, lm.rnn.layers[1].weight_hh_l0)

    assert _predict_cli(moved, elsewhere / "cli", _isolated_env(tmp_path / "empty")) == [expected]

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")  # the predictor splits sentences too
    nlp.add_pipe("green_nlp_ner", config={"archive": str(moved)})
    doc = nlp(TEXT)
    assert expected["sentence_starts"] == [sentence.start for sentence in doc.sents] == [0, 7]
    assert [(e.start, e.end, e.label_) for e in doc.ents] == [
        (span["start"], span["end"], span["label"]) for span in expected["spans"]
    ]


def test_trained_tagger_predicts_with_its_lm_archives_and_data_deleted(trained, elsewhere, tmp_path):
    lm_paths = _archived_lm_paths(trained["archive"])
    assert len(lm_paths) == 2 and all(Path(path).is_absolute() and not Path(path).exists() for path in lm_paths)
    moved = _moved(trained["archive"], tmp_path / "moved")
    outputs = _predict_cli(moved, elsewhere / "cli", _isolated_env(tmp_path / "empty"))
    assert len(outputs) == 1 and len(outputs[0]["tags"]) == 14
    assert outputs == [Predictor.from_path(str(moved), "green_sentence_tagger").predict_json({"sentence": TEXT})]


def test_training_from_another_folder_without_data_warns_about_the_fixtures(trained):
    stderr = trained["stderr"]
    assert "WARNING: green_nlp LD-Net: training the tagger on the tiny made-up fixture files" in stderr
    assert f"set GREEN_NLP_DATA (now {trained['empty']}) to the folder holding ner/conll2003/eng.train" in stderr


def test_pruned_tagger_predicts_from_another_folder(trained, elsewhere, tmp_path):
    archive = load_archive(str(trained["archive"]))
    with torch.no_grad():  # the layer-selection stage's outcome: one layer kept per LM
        archive.model.lm_gates.copy_(torch.tensor([0.0, 1.0, 0.0, 1.0, 0.0, 0.0]))
    selected = tmp_path / "select"
    selected.mkdir()
    archive.config.to_file(str(selected / CONFIG_NAME))
    archive.model.vocab.save_to_files(str(selected / "vocabulary"))
    torch.save(archive.model.state_dict(), selected / "weights.th")
    archive_model(str(selected), weights="weights.th")
    expected = Predictor.from_path(str(selected / "model.tar.gz"), "green_sentence_tagger").predict_json(
        {"sentence": TEXT}
    )

    pruned = tmp_path / "pruned.tar.gz"
    assert prune_archive(str(selected / "model.tar.gz"), str(pruned))["kept_layers"] == [[1], [0]]
    shutil.rmtree(selected)
    moved = _moved(pruned, tmp_path / "moved")
    assert _predict_cli(moved, elsewhere / "cli", _isolated_env(tmp_path / "empty")) == [expected]
