"""GREEN_NLP_DATA is exported absolute, so a resumed run sees the data paths it started with."""
import os
from pathlib import Path

from green_nlp.data_paths import DATA_ENV_VAR, export_default_data_dir


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
