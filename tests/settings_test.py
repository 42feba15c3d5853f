"""GREEN_NLP_DATA and the LD-Net settings are exported absolute, so a resumed run sees the data paths it
started with and a config names the same files from any folder."""

import os
from pathlib import Path

from green_nlp.settings import DATA_ENV_VAR, LDNET_DEFAULT_FIXTURES, export_default_data_dir, missing_file_hint

LDNET_PATHS = ("LDNET_DATA", "LDNET_RUNS", "LDNET_FIXTURES")


def _exported(monkeypatch, value) -> str:
    if value is None:
        monkeypatch.delenv(DATA_ENV_VAR, raising=False)
    else:
        monkeypatch.setenv(DATA_ENV_VAR, value)
    export_default_data_dir()
    return os.environ[DATA_ENV_VAR]


def test_relative_and_default_spellings_of_one_folder_export_the_same_path(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    default = _exported(monkeypatch, None)
    assert Path(default).is_absolute()
    assert _exported(monkeypatch, os.path.relpath(default, tmp_path)) == default
    assert _exported(monkeypatch, default + os.sep + "." + os.sep) == default


def test_a_relative_setting_is_read_from_the_working_directory(monkeypatch, tmp_path):
    (tmp_path / "my_data").mkdir()
    monkeypatch.chdir(tmp_path)
    assert _exported(monkeypatch, "my_data") == str((tmp_path / "my_data").resolve())


def test_ldnet_settings_are_absolute_and_fall_back_to_the_fixtures_without_data(monkeypatch, tmp_path):
    for name in LDNET_PATHS + ("LDNET_LM_PRESET",):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    _exported(monkeypatch, "no-data-here")
    assert all(Path(os.environ[name]).is_absolute() for name in LDNET_PATHS)
    assert os.environ["LDNET_DATA"] == str(LDNET_DEFAULT_FIXTURES / "data")
    assert (Path(os.environ["LDNET_DATA"]) / "ner_conll2003_train.txt").exists()
    assert os.environ["LDNET_LM_PRESET"] in ("tiny", "cpu")  # cpu only where this clone trained its LMs


def test_a_missing_file_under_the_data_root_names_the_setting(monkeypatch, tmp_path):
    monkeypatch.setenv(DATA_ENV_VAR, str(tmp_path / "data"))
    hint = missing_file_hint(tmp_path / "data" / "ud" / "train.conllu")
    assert hint.startswith(f" ({DATA_ENV_VAR} is {tmp_path / 'data'}, which does not exist: set {DATA_ENV_VAR}")
    (tmp_path / "data").mkdir()
    assert "which lacks this file" in missing_file_hint(tmp_path / "data" / "ud" / "train.conllu")


def test_a_missing_relative_file_names_the_folder_it_was_read_from(monkeypatch, tmp_path):
    monkeypatch.setenv(DATA_ENV_VAR, str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert missing_file_hint("fixtures/x.conllu").startswith(
        f" (a relative path, read from the current folder {tmp_path}"
    )
    assert missing_file_hint(tmp_path / "elsewhere" / "x.conllu") == ""  # absolute, outside the data: nothing to add
