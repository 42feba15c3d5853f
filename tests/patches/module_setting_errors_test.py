"""A value a torch module refuses names the config section it was set in (`model.encoder: ...`)."""

import subprocess
import sys

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.from_params import FromParams
from allennlp.data import DatasetReader
from allennlp.modules import Seq2SeqEncoder

from green_nlp.patches import module_setting_errors
from tests.conftest import REPO_ROOT


def test_the_patch_is_installed_once():
    assert module_setting_errors.apply() is False  # by green_nlp.register() in conftest
    assert getattr(FromParams.__dict__["from_params"].__func__, "_green_nlp_patched", False)


def test_a_refused_module_value_names_its_section_and_stays_a_value_error():
    params = Params({"type": "lstm", "input_size": 4, "hidden_size": -5}, history="model.encoder.")
    with pytest.raises(ValueError, match=r"^model\.encoder: hidden_size must be greater than zero \(building Lstm"):
        Seq2SeqEncoder.from_params(params)
    params = Params({"type": "lstm", "input_size": 4, "hidden_size": -5}, history="model.encoder.")
    with pytest.raises(ConfigurationError):
        Seq2SeqEncoder.from_params(params)


def test_what_is_not_a_module_raises_as_before():
    params = Params({"type": "green_conll_tagging", "label_encoding": "XYZ"}, history="dataset_reader.")
    with pytest.raises(ValueError, match=r"^label_encoding must be one of") as raised:
        DatasetReader.from_params(params)
    assert not isinstance(raised.value, ConfigurationError)


def test_green_nlp_train_says_it_on_one_line_named_once(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", "train", "training_configs/parser/quickstart.jsonnet"]
        + ["-s", str(tmp_path / "run"), "-o", '{"model.encoder.hidden_size": -5}'],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 2
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "green-nlp train: model.encoder: hidden_size must be greater than zero (building LstmSeq2SeqEncoder)"
    ), result.stderr[-2000:]
    assert "Traceback" not in result.stderr


def test_allennlp_and_torch_components_that_refuse_a_setting_name_its_section_too():
    import torch
    from allennlp.training.optimizers import Optimizer

    parameters = [("w", torch.nn.Parameter(torch.zeros(2)))]
    params = Params({"type": "adam", "lr": -0.1}, history="trainer.optimizer.")
    with pytest.raises(
        ValueError, match=r"^trainer\.optimizer: Invalid learning rate: -0\.1 \(building AdamOptimizer\)"
    ):
        Optimizer.from_params(params, model_parameters=parameters)
