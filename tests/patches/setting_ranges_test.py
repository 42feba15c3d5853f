"""Trainer and batch settings that train the wrong way or crash late are refused naming their key,
through the real `green-nlp train` on the quickstart config."""

import subprocess
import sys

import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.patches import setting_ranges
from green_nlp.patches.setting_ranges import check_trainer

QUICKSTART = "training_configs/parser/quickstart.jsonnet"


def test_the_patch_is_applied_once() -> None:
    assert setting_ranges.apply() is False  # by green_nlp.register() in conftest


@pytest.mark.parametrize(
    "settings, key",
    [
        ({"grad_norm": -5}, "trainer.grad_norm"),
        ({"grad_norm": 0}, "trainer.grad_norm"),
        ({"grad_clipping": 0.0}, "trainer.grad_clipping"),
        ({"num_epochs": 0}, "trainer.num_epochs"),
        ({"num_epochs": "3"}, "trainer.num_epochs"),
    ],
)
def test_a_trainer_setting_out_of_range_is_refused(settings, key) -> None:
    with pytest.raises(ConfigurationError, match=rf"^{key} must be a positive number"):
        check_trainer(settings)


def test_the_defaults_and_good_values_pass() -> None:
    for settings in (
        {},
        {"grad_norm": False},
        {"grad_norm": None},
        {"grad_norm": 5.0, "grad_clipping": 1, "num_epochs": 1},
    ):
        check_trainer(settings)


@pytest.mark.parametrize(
    "override, message",
    [
        ('{"trainer.grad_norm": -5}', "trainer.grad_norm must be a positive number"),
        (
            '{"data_loader.batch_sampler.batch_size": 0}',
            "data_loader.batch_sampler.batch_size must be a positive number",
        ),
    ],
)
def test_green_nlp_train_says_it_on_one_line(tmp_path, override, message) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", "train", QUICKSTART, "-s", str(tmp_path / "run"), "-o", override],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 2, run.stderr[-2000:]
    assert message in run.stderr and "Traceback" not in run.stderr
