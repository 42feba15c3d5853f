"""green-export writes into a new or empty folder, or with --overwrite over an exported model of the
same family, whose files go first: another family's folder (or any other files) kept its files
beside the new ones, and a re-export over a model left its card and dictionaries describing it."""

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


def test_a_missing_card_stops_the_export_before_it_writes_anything(tmp_path):
    """The card was read last: the graphs were written, and the corrected command was then refused
    because the half-written folder "holds other files"."""
    target = tmp_path / "out"
    with pytest.raises(FileNotFoundError, match="no-such-card.md"):
        export_archive(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz", target, card=tmp_path / "no-such-card.md")
    assert not target.exists()


@pytest.mark.parametrize("kind", ["binary", "folder"])
def test_a_card_that_is_not_text_is_one_error_naming_it(tmp_path, kind):
    card = tmp_path / "card.md"
    if kind == "folder":
        card.mkdir()
    else:
        card.write_bytes(b"\x1f\x8b\x08\x00 not a card")  # a gzip header: the archive given as the card
    with pytest.raises(ConfigurationError, match=f"--card {card} is (not UTF-8 text|a folder)"):
        export_archive(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz", tmp_path / "out", card=card)
    assert not (tmp_path / "out").exists()


def test_only_a_new_empty_or_same_family_folder_is_exported_into(tmp_path):
    check_output_folder(tmp_path / "new", "parser")
    (tmp_path / "empty").mkdir()
    check_output_folder(tmp_path / "empty", "parser")
    tagger = tmp_path / "tagger"
    tagger.mkdir()
    (tagger / "green_model.json").write_text(json.dumps({"family": "tagger"}), encoding="utf-8")
    assert check_output_folder(tagger, "tagger", overwrite=True) == [tagger / "green_model.json"]
    with pytest.raises(ConfigurationError, match="already holds an exported tagger model: .* pass --overwrite"):
        check_output_folder(tagger, "tagger")
    with pytest.raises(ConfigurationError, match="holds an exported tagger model, not an exported parser model"):
        check_output_folder(tagger, "parser")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(
        ConfigurationError, match="holds other files, not an exported parser model: give a new or empty"
    ):
        check_output_folder(tmp_path / "notes", "parser")


ARCHIVE = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"


def test_a_model_is_replaced_only_with_overwrite_and_none_of_its_files_stay(tmp_path):
    folder = export_archive(ARCHIVE, tmp_path / "parser")
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    # what a shipped folder holds beside the graphs: a card and a dictionary the metadata names
    (folder / "README.md").write_text("# an older model's card\n", encoding="utf-8")
    (folder / "tokenizer_rules.json").write_text("{}", encoding="utf-8")
    meta["card"] = {"file": "README.md"}
    meta["tokenizer_rules"] = {"file": "tokenizer_rules.json"}
    (folder / "green_model.json").write_text(json.dumps(meta), encoding="utf-8")
    before = (folder / "model.int8.onnx").read_bytes()

    with pytest.raises(ConfigurationError, match="already holds an exported parser model"):
        export_archive(ARCHIVE, folder)
    assert (folder / "README.md").is_file() and (folder / "model.int8.onnx").read_bytes() == before  # untouched

    export_archive(ARCHIVE, folder, overwrite=True)
    assert not (folder / "README.md").exists() and not (folder / "tokenizer_rules.json").exists()
    fresh = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    assert "card" in fresh and fresh.get("tokenizer_rules") is None
    assert (folder / "model.int8.onnx").is_file()


def test_overwrite_refuses_a_folder_holding_files_its_model_does_not_name(tmp_path):
    folder = export_archive(ARCHIVE, tmp_path / "parser")
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"holds files its exported model does not name \(notes.txt\)"):
        export_archive(ARCHIVE, folder, overwrite=True)
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine" and (folder / "green_model.json").is_file()


def test_the_tokenizer_language_is_set_at_export_and_checked(tmp_path):
    """Every folder said `en`: a model of a Chinese treebank read whole clauses as one word."""
    from green_nlp.runtime import load

    folder = export_archive(ARCHIVE, tmp_path / "tamil", language="ta")
    assert json.loads((folder / "green_model.json").read_text(encoding="utf-8"))["tokenizer"]["language"] == "ta"
    assert load(folder).segmenter.language == "ta"
    assert (
        json.loads((export_archive(ARCHIVE, tmp_path / "en") / "green_model.json").read_text())["tokenizer"]["language"]
        == "en"
    )
    with pytest.raises(ConfigurationError, match="--language 'wo': spaCy has no tokenizer rules for it.*--language xx"):
        export_archive(ARCHIVE, tmp_path / "bad", language="wo")  # Wolof: spaCy has none; xx takes it
    assert not (tmp_path / "bad").exists()  # refused before anything was written
