"""Fine-tuning a pruned LD-Net tagger (`TASK=ner STAGE=finetune training_configs/ldnet/tagger.jsonnet`) trains the
tagger around the kept LM layers without touching them, and `green-prune-ldnet` turns the result
into an archive that loads without the pruned one it started from."""

import json
import os
import shutil
import subprocess
import sys

import torch
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.commands.green_prune_ldnet import prune_archive
from tests.commands.green_prune_ldnet_test import TEXT, _gated_archive
from tests.conftest import REPO_ROOT


def _state(archive_file):
    return {k: v.clone() for k, v in load_archive(str(archive_file)).model.state_dict().items()}


def test_finetuned_pruned_tagger_keeps_its_lm_layers_and_becomes_standalone(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    gated = _gated_archive(tmp_path, [1.0, 0.0, 0.0, 0.0, 0.7, 0.0])
    pruned = tmp_path / "pruned" / "model.tar.gz"
    prune_archive(str(gated), str(pruned))
    run = tmp_path / "finetune"
    overrides = {"model.archive_file": str(pruned), "vocabulary.directory": str(pruned), "trainer.num_epochs": 2}
    env = {"LDNET_DATA": "fixtures/ldnet/data", "LDNET_LM_PRESET": "tiny", "TASK": "ner", "STAGE": "finetune"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            "training_configs/ldnet/tagger.jsonnet",
            "-s",
            str(run),
            "-o",
            json.dumps(overrides),
            "--include-package",
            "green_nlp",
        ],
        cwd=REPO_ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "test_f1-measure-overall" in json.loads((run / "metrics.json").read_text())

    before, after = _state(pruned), _state(run / "model.tar.gz")
    assert before.keys() == after.keys()
    frozen = [k for k in before if k.startswith("language_models.") or k == "lm_gates"]
    assert frozen and all(torch.equal(before[k], after[k]) for k in frozen)
    assert after["lm_gates"].tolist() == [1.0, 0.699999988079071]
    assert any(not torch.equal(before[k], after[k]) for k in before if k not in frozen)  # the tagger did train

    standalone = tmp_path / "pruned_ft.tar.gz"
    summary = prune_archive(str(run / "model.tar.gz"), str(standalone))
    assert summary["kept_layers"] == [[0], [0]] and summary["params_before"] == summary["params_after"]
    shutil.rmtree(tmp_path / "pruned")  # the standalone archive must not need it
    reloaded = load_archive(str(standalone))
    assert [lm["num_layers"] for lm in reloaded.config.as_dict()["model"]["language_models"]] == [1, 1]
    assert all(torch.equal(v, after[k]) for k, v in reloaded.model.state_dict().items())
    tags = Predictor.from_archive(reloaded, "green_sentence_tagger").predict_json({"sentence": TEXT})["tags"]
    assert len(tags) == 14
