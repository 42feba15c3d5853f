"""benchmarks.parser.ud_heads_weights: LABEL=ARCHIVE arguments are checked with a clear message, and
one model's rows (the shipped parser on the fixture treebank, with its UD heads and without) hold the
official scores."""

import argparse
import json
import shutil
from pathlib import Path

import conllu
import pytest

from benchmarks.parser.ud_heads_weights import labelled_archive, lemma_dictionary, model_rows
from green_nlp.runtime import load
from green_nlp.runtime.lemma_lexicon import LemmaLexicon
from tests.conftest import FIXTURES

GOLD = FIXTURES / "ud" / "synthetic-dev.conllu"


def test_labelled_archive_splits_on_the_first_equals_sign(tmp_path):
    archive = tmp_path / "a=b.tar.gz"
    archive.write_bytes(b"")
    assert labelled_archive(f"weight 0.3={archive}") == ("weight 0.3", archive)


@pytest.mark.parametrize("value", ["no-label.tar.gz", "=x.tar.gz", "label="])
def test_labelled_archive_rejects_a_value_without_label_or_archive(value):
    with pytest.raises(argparse.ArgumentTypeError, match="LABEL=ARCHIVE"):
        labelled_archive(value)


def test_labelled_archive_names_a_missing_archive(tmp_path):
    with pytest.raises(argparse.ArgumentTypeError, match="'light'.*missing.tar.gz"):
        labelled_archive(f"light={tmp_path / 'missing.tar.gz'}")


def head_less_copy(folder: Path) -> Path:
    """The shipped parser's folder without its LEMMA / FEATS / XPOS outputs and lemma dictionary: the
    same trees, as a model trained without the heads writes them (`_` in those columns)."""
    from green_nlp.runtime import resolve_model
    from green_nlp.runtime.model_folder import record_file_hashes

    shutil.copytree(resolve_model("en-ewt-parser"), folder)
    meta = json.loads((folder / "green_model.json").read_text(encoding="utf-8"))
    for field in ("lemma_rules", "lemma_rules_top", "lemma_rules_top_logits", "feats", "xpos"):
        meta["outputs"].pop(field, None)
    # the lemma head's own graph goes too (the main graph's extra output, its states, is left unread)
    for key, name in (("lemma_lexicon", "lemma_lexicon.json"), ("lemma_head", "lemma_head.int8.onnx")):
        meta.pop(key, None)
        meta.get("sha256", {}).pop(name, None)
        (folder / name).unlink(missing_ok=True)
    (folder / "green_model.json").write_text(json.dumps(meta), encoding="utf-8")
    record_file_hashes(folder)
    return folder


def shipped_rows(model) -> dict:
    with open(GOLD, encoding="utf-8") as handle:
        gold = list(conllu.parse_incr(handle))
    # the raw-text row parses the text line, the gold-token row the words: glue the first two words
    gold[0].metadata["text"] = gold[0].metadata["text"].replace(" ", "", 1)
    rows = model_rows("shipped", model, {"dev": (Path(GOLD), gold)})
    assert list(rows) == ["shipped: dev, raw text", "shipped: dev, gold tokens"]
    tokens = rows["shipped: dev, gold tokens"]
    assert tokens["words_f1"] == 100.0
    assert 0.0 < tokens["las"] <= tokens["uas"] <= 100.0
    assert rows["shipped: dev, raw text"]["words_f1"] < 100.0
    return tokens


def test_rows_of_the_shipped_parser_score_its_ud_heads():
    tokens = shipped_rows(load("en-ewt-parser", threads=1))
    assert tokens["lemmas"] > 50.0 and tokens["ufeats"] > 0.0 and tokens["mlas"] > 0.0  # synthetic FEATS: low


def test_rows_of_a_head_less_parser(tmp_path):
    tokens = shipped_rows(load(head_less_copy(tmp_path / "head_less"), threads=1))
    assert tokens["lemmas"] == 0.0  # no heads: LEMMA left empty, every fixture word has one


def _folder(tmp_path, **meta):
    tmp_path.mkdir()
    meta = {"format_version": 1, "family": "parser", **meta}
    (tmp_path / "green_model.json").write_text(json.dumps(meta), encoding="utf-8")
    return tmp_path


def test_lemma_dictionary_is_added_only_to_a_lemma_head_folder_without_one(tmp_path):
    lexicon = LemmaLexicon.from_conllu(FIXTURES / "ud" / "synthetic-tiny-ud-columns.conllu")
    assert lemma_dictionary(_folder(tmp_path / "a", lemma_lexicon={"entries": 3}), lexicon) == "archive"
    assert lemma_dictionary(_folder(tmp_path / "b", outputs={"upos": "upos_tags"}), lexicon) == "none"
    heads = _folder(tmp_path / "c", outputs={"lemma_rules": "lemma_rules_tags"})
    assert lemma_dictionary(heads, None) == "none"
    assert lemma_dictionary(heads, lexicon) == "training file"
    assert lemma_dictionary(heads, lexicon) == "archive"  # now it has one
