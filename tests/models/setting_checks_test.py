"""A dropout outside [0, 1) in a config is refused naming the model and the setting (torch's own
error names neither), before any training starts."""

import subprocess
import sys

import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.models.setting_checks import check_dropouts
from tests.conftest import REPO_ROOT


@pytest.mark.parametrize("value", [-0.5, 1.0, 1.5])
def test_a_dropout_outside_zero_to_one_is_named(value):
    with pytest.raises(ConfigurationError, match=rf"^m: mlp_dropout must be at least 0 and below 1 .*got {value}$"):
        check_dropouts("m", embedding_dropout=0.3, mlp_dropout=value)
    check_dropouts("m", embedding_dropout=0.0, mlp_dropout=0.99)


def test_allennlp_train_refuses_a_parser_dropout_by_name(tmp_path):
    overrides = '{"model.mlp_dropout": 1.5, "trainer.num_epochs": 1}'
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "green_nlp.cli",
            "train",
            "training_configs/parser/quickstart.jsonnet",
            "-s",
            str(tmp_path / "run"),
            "-o",
            overrides,
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert "green_biaffine_parser: mlp_dropout must be at least 0 and below 1" in result.stderr
    assert "Traceback" not in result.stderr
