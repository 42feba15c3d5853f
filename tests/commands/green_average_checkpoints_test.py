import shutil
import subprocess
import sys

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

from green_nlp.commands.green_average_checkpoints import average_run
from green_nlp.training.checkpoint_averaging import epoch_checkpoints
from tests.dan_helpers import tiny_dan_run


def test_archive_holds_the_mean_of_two_epochs_and_predicts(tmp_path):
    run = tiny_dan_run()
    first, second = epoch_checkpoints(run)[-2:]
    output = tmp_path / "averaged.tar.gz"
    summary = average_run(str(run), str(output), [first.name, second.name])
    assert summary["checkpoints"] == [first.name, second.name]
    model = load_archive(str(output)).model  # reloads from the run's own config and vocabulary
    a, b = torch.load(first), torch.load(second)
    assert not torch.equal(a["ngram_embedding.weight"], b["ngram_embedding.weight"])
    for name, tensor in model.state_dict().items():
        assert torch.allclose(tensor, (a[name] + b[name]) / 2, atol=1e-7), name
    predictor = Predictor.from_path(str(output), "green_text_classifier")
    assert len(predictor.predict_json({"text": "a gripping , funny film"})["probs"]) == 2


def test_the_command_line_defaults_to_best_and_last(tmp_path):
    output = tmp_path / "averaged.tar.gz"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "green-average-checkpoints",
            str(tiny_dan_run()),
            "--output",
            str(output),
            "--include-package",
            "green_nlp",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert '"checkpoints": ["best.th", "model_state_e' in result.stdout and output.exists()


def test_one_checkpoint_or_a_missing_one_is_refused(tmp_path):
    run = tiny_dan_run()
    with pytest.raises(ConfigurationError, match="at least two different"):
        average_run(str(run), str(tmp_path / "x.tar.gz"), ["best.th", "best.th"])
    with pytest.raises(ConfigurationError, match="does not exist"):
        average_run(str(run), str(tmp_path / "x.tar.gz"), ["best.th", "model_state_e99_b0.th"])
    with pytest.raises(ConfigurationError, match="not an AllenNLP serialization directory"):
        average_run(str(tmp_path), str(tmp_path / "x.tar.gz"))


def test_a_folder_as_output_is_refused(tmp_path):
    """AllenNLP's archive_model wrote model.tar.gz inside a folder: the run's own, given the run."""
    run = tmp_path / "run"
    shutil.copytree(tiny_dan_run(), run)  # a copy: a regression must not change the shared run
    before = (run / "model.tar.gz").read_bytes()
    with pytest.raises(ConfigurationError, match="is a folder: give the archive's file name"):
        average_run(str(run), str(run))
    assert (run / "model.tar.gz").read_bytes() == before
