"""green-export writes into a new or empty folder, or over an exported model of the same family:
another family's folder (or any other files) kept its files beside the new ones."""

import json

import pytest
from allennlp.common.checks import ConfigurationError

from green_nlp.export.common import check_output_folder, export_archive
from tests.conftest import FIXTURES


def test_a_file_as_the_output_folder_is_refused_before_loading(tmp_path):
    target = tmp_path / "taken.txt"
    target.write_text("x", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="taken.txt is a file: give a folder to export into"):
        export_archive(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz", target)


def test_only_a_new_empty_or_same_family_folder_is_exported_into(tmp_path):
    check_output_folder(tmp_path / "new", "parser")
    (tmp_path / "empty").mkdir()
    check_output_folder(tmp_path / "empty", "parser")
    tagger = tmp_path / "tagger"
    tagger.mkdir()
    (tagger / "green_model.json").write_text(json.dumps({"family": "tagger"}), encoding="utf-8")
    check_output_folder(tagger, "tagger")
    with pytest.raises(ConfigurationError, match="holds an exported tagger model, not an exported parser model"):
        check_output_folder(tagger, "parser")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(
        ConfigurationError, match="holds other files, not an exported parser model: give a new or empty"
    ):
        check_output_folder(tmp_path / "notes", "parser")
