"""`green-nlp train` on a data file that is not there: one line saying what to set, and the folder
it leaves behind is not said to hold a run to resume."""

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT


def green_nlp(args: list[str], cwd, data=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    env.pop("GREEN_NLP_TRACEBACK", None)
    if data is not None:
        env["GREEN_NLP_DATA"] = str(data)
    command = [sys.executable, "-m", "green_nlp.cli", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_a_missing_data_folder_names_the_setting_on_one_line_and_the_retry_is_told_about_force(tmp_path):
    config = str(REPO_ROOT / "training_configs" / "parser" / "ud_ewt.jsonnet")
    run, missing = tmp_path / "run", tmp_path / "no-data"
    first = green_nlp(["train", config, "-s", str(run)], tmp_path, data=missing)
    assert first.returncode == 2 and "Traceback" not in first.stderr, first.stderr[-2000:]
    last = first.stderr.strip().splitlines()[-1]
    assert last.startswith("green-nlp train: CoNLL-U file not found: ") and "en_ewt-ud-train.conllu" in last
    assert f"(GREEN_NLP_DATA is {missing}, which does not exist: set GREEN_NLP_DATA" in last
    again = green_nlp(["train", config, "-s", str(run)], tmp_path, data=missing)
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert "It holds no checkpoint" in again.stderr and "resumes the run it holds" not in again.stderr


def test_a_config_with_relative_paths_run_from_another_folder_says_where_it_looked(tmp_path):
    config = str(REPO_ROOT / "training_configs" / "parser" / "quickstart.jsonnet")
    result = green_nlp(["train", config, "-s", str(tmp_path / "run")], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert (
        f"(a relative path, read from the current folder {tmp_path}: run the command from the repository root"
        in result.stderr
    )


def test_a_malformed_data_line_is_one_line_naming_file_and_line(tmp_path):
    bad = tmp_path / "cycle.conllu"
    rows = ["1\ta\t_\tX\t_\t_\t2\tdep\t_\t_", "2\tb\t_\tX\t_\t_\t1\tdep\t_\t_", "3\tc\t_\tX\t_\t_\t0\troot\t_\t_"]
    bad.write_text("\n".join(rows) + "\n\n", encoding="utf-8")
    archive = str(REPO_ROOT / "fixtures" / "archives" / "tiny_parser_teacher.tar.gz")
    result = green_nlp(["evaluate", archive, str(bad)], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert f"green-nlp evaluate: {bad}:1: words [1, 2] form a cycle of HEAD links" in result.stderr


def test_bad_option_values_and_bad_jsonnet_are_one_line(tmp_path):
    archive = str(REPO_ROOT / "fixtures" / "archives" / "tiny_parser_teacher.tar.gz")
    text = tmp_path / "in.txt"
    text.write_text('{"words": ["a"], "upos": ["DET"]}\n', encoding="utf-8")
    result = green_nlp(["predict", archive, str(text), "--batch-size", "0"], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "green-nlp predict: --batch-size must be positive, got 0" in result.stderr
    config = str(REPO_ROOT / "training_configs" / "parser" / "quickstart.jsonnet")
    result = green_nlp(["train", config, "-s", str(tmp_path / "run"), "-o", "{bad"], REPO_ROOT)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "green-nlp train: the config or its -o overrides are not valid Jsonnet: STATIC ERROR" in result.stderr


def test_an_override_the_config_has_no_place_for_is_one_line(tmp_path):
    config = str(REPO_ROOT / "training_configs" / "parser" / "quickstart.jsonnet")
    result = green_nlp(["train", config, "-s", str(tmp_path / "run"), "-o", '{"trainr.num_epochs": 1}'], REPO_ROOT)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "green-nlp train: -o overrides: overrides dict contains unused keys: ['trainr.num_epochs']" in result.stderr


def test_only_errors_raised_in_green_nlp_are_shortened():
    import numpy as np

    from green_nlp.error_origin import raised_in_green_nlp
    from green_nlp.line_stream import parse_shard

    for call, ours in ((lambda: parse_shard("a/b"), True), (lambda: np.zeros(-1), False)):
        try:
            call()
        except ValueError as error:
            assert raised_in_green_nlp(error) is ours


def test_a_configs_own_jsonnet_error_is_its_message_and_place(tmp_path, monkeypatch):
    """A missing `std.extVar` or a value the config's `error` refuses is the config's message and where
    it stopped, not 'not valid Jsonnet' with Jsonnet's stack of frames (the student config's header
    names the variables it takes)."""
    import _jsonnet

    from green_nlp.cli_allennlp import jsonnet_message

    config = str(REPO_ROOT / "training_configs" / "parser" / "student.jsonnet")
    for name in ("TREEBANK", "SIZE", "DISTILLED", "SEED"):
        monkeypatch.delenv(name, raising=False)  # the run's environment must not set the config's variables
    result = green_nlp(["train", config, "-s", str(tmp_path / "run")], REPO_ROOT)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("green-nlp train: the config stopped with an error: undefined external variable: ")
    assert "student.jsonnet:" in last and "set it in the environment" in last and "\t" not in last
    variables = {"TREEBANK": "ud_ewt", "SIZE": "33", "DISTILLED": "true", "SEED": "1", "GREEN_NLP_DATA": "data"}
    with pytest.raises(RuntimeError) as refused:
        _jsonnet.evaluate_file(config, ext_vars=variables)
    said = jsonnet_message(str(refused.value))
    assert said.startswith("the config stopped with an error: SIZE must be one of 20, 40, 60, 80, not 33 (at ")
    assert "\n" not in said and "set it in the environment" not in said


def test_a_relative_config_path_not_found_says_where_it_was_read_and_where_the_configs_are(tmp_path, monkeypatch):
    from allennlp.common.file_utils import cached_path

    from green_nlp.cli_allennlp import missing_file_message

    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as raised:  # what `train` meets for a config path that is not there
        cached_path("training_configs/parser/quickstart.jsonnet")
    message = missing_file_message(raised.value)
    assert message.startswith("file training_configs/parser/quickstart.jsonnet not found (a relative path, read ")
    assert f"current folder {tmp_path}: run the command from the repository root" in message
    assert message.endswith("; `green-nlp configs` prints the training configs' folder and lists them)")
    # an absolute path gets no such advice, and a relative archive none about configs
    with pytest.raises(FileNotFoundError) as absolute:
        cached_path(str(tmp_path / "no.jsonnet"))
    assert missing_file_message(absolute.value) == f"file {tmp_path / 'no.jsonnet'} not found"
    with pytest.raises(FileNotFoundError) as archive:
        cached_path("runs/x/model.tar.gz")
    assert "current folder" in missing_file_message(archive.value)
    assert "green-nlp configs" not in missing_file_message(archive.value)
