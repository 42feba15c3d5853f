"""A refused `-s` folder says how to go on (`-r`, `-f`, another folder) and which keys differ."""

import re
import subprocess
import sys

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.training import util as training_util

from green_nlp.patches import serialization_dir_advice
from green_nlp.patches.serialization_dir_advice import differing_keys
from tests.conftest import REPO_ROOT


def test_the_patch_is_installed_once():
    assert serialization_dir_advice.apply() is False  # by green_nlp.register() in conftest
    assert getattr(training_util.create_serialization_dir, "_green_nlp_patched", False)


def test_a_folder_that_is_not_empty_names_recover_and_force(tmp_path):
    (tmp_path / "config.json").write_text('{"model": {"mlp_dropout": 1.5}}', encoding="utf-8")
    (tmp_path / "model_state_e0_b0.th").write_bytes(b"")  # a run that saved a checkpoint
    with pytest.raises(ConfigurationError, match=r"Specify --recover .* -r \(--recover\) resumes .* -f \(--force\)"):
        training_util.create_serialization_dir(Params({"model": {"mlp_dropout": 0.3}}), str(tmp_path), False, False)


def test_a_recovered_config_that_differs_names_the_keys(tmp_path):
    (tmp_path / "config.json").write_text('{"model": {"mlp_dropout": 1.5}, "seed": 1}', encoding="utf-8")
    (tmp_path / "best.th").write_bytes(b"")
    with pytest.raises(ConfigurationError, match=r"It differs in model.mlp_dropout: 0.3 here, 1.5 there; -f"):
        training_util.create_serialization_dir(
            Params({"model": {"mlp_dropout": 0.3}, "seed": 1}), str(tmp_path), True, False
        )


@pytest.mark.parametrize("recover", [False, True])
def test_a_folder_without_a_checkpoint_is_not_said_to_hold_a_run_to_resume(tmp_path, recover):
    """A run that stopped before its first checkpoint (a missing data file) left config.json only."""
    (tmp_path / "config.json").write_text('{"model": {"mlp_dropout": 0.3}, "seed": 2}', encoding="utf-8")
    (tmp_path / "out.log").write_text("", encoding="utf-8")
    with pytest.raises(ConfigurationError) as refused:
        training_util.create_serialization_dir(
            Params({"model": {"mlp_dropout": 0.3}, "seed": 1}), str(tmp_path), recover, False
        )
    message = str(refused.value)
    assert "It holds no checkpoint" in message and "nothing to resume: -f (--force) deletes the folder" in message
    assert "resumes the run it holds" not in message
    assert ("It differs in seed: 1 here, 2 there." in message) == recover


def test_other_refusals_are_left_as_they_are(tmp_path):
    with pytest.raises(
        ConfigurationError, match=r"^--recover specified but serialization_dir .* nothing to recover from\.$"
    ):
        training_util.create_serialization_dir(Params({}), str(tmp_path / "missing"), True, False)


def test_differing_keys_counts_what_it_does_not_show():
    given, recovered = {f"k{i}": i for i in range(5)}, {f"k{i}": -i for i in range(5)} | {"extra": 1}
    assert differing_keys(given, recovered) == (
        "extra: '(absent)' here, 1 there; k1: 1 here, -1 there; k2: 2 here, -2 there and 2 more"
    )


def test_the_corrected_run_after_a_bad_value_is_told_about_force(tmp_path):
    """The dead end a user met: a run refused for a bad value leaves config.json in its folder."""
    run = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "green_nlp.cli",
        "train",
        "training_configs/parser/quickstart.jsonnet",
        "-s",
        str(run),
    ]
    bad = subprocess.run([*command, "-o", '{"model.mlp_dropout": 1.5}'], cwd=REPO_ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and (run / "config.json").exists() and "Traceback" not in bad.stderr
    assert "green_biaffine_parser: mlp_dropout must be at least 0 and below 1" in bad.stderr  # named, not torch's
    again = subprocess.run([*command, "-r"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 2, again.stderr[-2000:]
    assert re.search(
        r"It differs in model.mlp_dropout: [\d.]+ here, 1.5 there\. It holds no checkpoint .* nothing to resume: "
        r"-f \(--force\) deletes the folder",
        again.stderr,
    )
