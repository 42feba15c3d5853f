"""`resolve_model`: what a user gives as a model (a name, a folder, the archive training wrote) and
the message each wrong kind gets."""

import tarfile
from pathlib import Path

import pytest

from green_nlp.cli import run_runtime
from green_nlp.runtime.model_folder import resolve_model
from tests.conftest import FIXTURES


def test_a_trained_archive_is_refused_saying_how_to_export_it(tmp_path: Path):
    archive = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"
    with pytest.raises(
        FileNotFoundError, match=r"is an archive .*green-nlp green-export .*tiny_parser_teacher\.tar\.gz FOLDER"
    ):
        resolve_model(archive)


def test_any_tar_file_counts_as_an_archive_and_other_files_do_not(tmp_path: Path):
    packed = tmp_path / "model.tar.gz"
    with tarfile.open(packed, "w:gz") as tar:
        tar.add(FIXTURES / "raw_text.txt", arcname="config.json")
    with pytest.raises(FileNotFoundError, match="is an archive"):
        resolve_model(packed)
    text = tmp_path / "model.txt"
    text.write_text("not a model\n", encoding="utf-8")
    with pytest.raises(FileNotFoundError, match="not a folder with green_model.json, nor a model name"):
        resolve_model(text)


def test_the_cli_given_an_archive_exits_2_with_the_export_command(tmp_path: Path, capsys):
    archive = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"
    assert run_runtime(["parse", str(archive), str(FIXTURES / "raw_text.txt")]) == 2
    err = capsys.readouterr().err
    assert f"green-nlp green-export {archive} FOLDER" in err and "Traceback" not in err
