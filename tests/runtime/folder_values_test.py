"""A model folder whose metadata disagrees with its graph or holds values the runtime cannot use is
refused at load (or, for a label list shorter than the graph's classes, on the first batch) with
one message naming the folder, and the CLI exits 2: even with its file hashes recorded again, as
anyone editing a folder can. Runs on copies of the shipped folders (runtime only)."""

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from green_nlp.cli import run_runtime
from green_nlp.runtime import load
from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.folder_schema import exported_lengths, sized_lists
from green_nlp.runtime.model_folder import META_FILE, record_file_hashes
from green_nlp.runtime.onnx_reading import read_onnx_graph
from tests.conftest import REPO_ROOT


def _copy(tmp_path: Path, name: str, edit: Callable[[dict[str, Any]], None]) -> Path:
    folder = tmp_path / name
    shutil.copytree(REPO_ROOT / "pretrained" / name, folder)
    meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    edit(meta)
    (folder / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    record_file_hashes(folder)
    return folder


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(meta: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = meta
        for part in parents:
            node = node[part]
        node[int(last) if isinstance(node, list) else last] = value  # a number names a list's entry

    return edit


def _node(meta: dict[str, Any], dotted: str) -> tuple[dict[str, Any], str]:
    *parents, last = dotted.split(".")
    node = meta
    for part in parents:
        node = node[part]
    return node, last


def _record(dotted: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(meta: dict[str, Any]) -> None:
        meta["exported_lengths"][dotted] = value

    return edit


def _delete(dotted: str) -> Callable[[dict[str, Any]], None]:
    def edit(meta: dict[str, Any]) -> None:
        node, last = _node(meta, dotted)
        del node[last]

    return edit


def _duplicate(dotted: str) -> Callable[[dict[str, Any]], None]:
    """An entry replaced by an earlier one: same length, but the later id can never be given."""

    def edit(meta: dict[str, Any]) -> None:
        node, last = _node(meta, dotted)
        node[last][5] = node[last][2]

    return edit


def _longer(dotted: str) -> Callable[[dict[str, Any]], None]:
    """One entry more than the graph has rows or classes for."""

    def edit(meta: dict[str, Any]) -> None:
        node, last = _node(meta, dotted)
        node[last] = [*node[last], "added-by-hand"]

    return edit


def _cut(dotted: str) -> Callable[[dict[str, Any]], None]:
    """Cut to half its length (every id past the cut would become the unknown word's)."""

    def edit(meta: dict[str, Any]) -> None:
        node, last = _node(meta, dotted)
        node[last] = node[last][: (len(node[last]) + 1) // 2]

    return edit


@pytest.mark.parametrize(
    "name, edit, expected",
    [
        ("en-ewt-parser", _set("max_sentence_length", None), "max_sentence_length"),
        ("en-ewt-parser", _set("max_sentence_length", "abc"), "max_sentence_length"),
        ("en-ewt-parser", _set("max_sentence_length", 0), "at least 1"),
        ("en-ewt-parser", _set("labels.deprel", ["nsubj", "ob\tj"]), "without tabs or line breaks"),
        ("en-ewt-parser", _set("labels.xpos", ["NN", "V\u2028B"]), "without tabs or line breaks"),
        ("en-ewt-parser", _set("labels.upos", []), "non-empty list"),
        ("en-ewt-parser", _set("inputs.words.input", "words_in"), "does not have"),
        ("en-ewt-parser", _set("outputs.upos", "upos_out"), "does not have"),
        ("en-sst2-sentiment", _set("inputs.ngram_ids", "ids"), "does not have"),
        ("en-ewt-parser", _set("inputs.words.oov_index", -5), "oov_index"),
        ("en-ewt-parser", _set("inputs.words.oov_index", 10**9), "oov_index"),
        ("en-ewt-parser", _set("inputs.characters.min_padding_length", "x"), "min_padding_length"),
        ("en-ewt-parser", _set("inputs.characters.min_padding_length", 10**7), "min_padding_length"),
        ("en-sst2-sentiment", _set("ngrams.first_id", -5), "first_id"),
        ("en-sst2-sentiment", _set("ngrams.first_id", 3), r'"ngrams.first_id" \(3\) and "ngrams.count" \(200000\) do'),
        ("en-sst2-sentiment", _set("ngrams.first_id", 1), "do not fit the graph's n-gram table of 200002 rows"),
        ("en-sst2-sentiment", _set("ngrams.rows", "200002"), 'key "ngrams.rows" must be a whole number'),
        ("en-sst2-sentiment", _set("labels", ["positive", 3]), "entry 1"),
        ("en-sst2-sentiment", _set("labels", ["positive", "positive"]), "lists 'positive' twice"),
        ("en-ewt-parser", _set("labels.upos", ["NOUN"] * 19), "lists 'NOUN' twice"),
        ("en-ewt-parser", _longer("inputs.words.vocabulary"), "has 16003 entries, but the graph was exported with"),
        ("en-ewt-parser", _cut("inputs.words.vocabulary"), "has 8001 entries, but the graph was exported with 16002"),
        ("en-ewt-parser", _cut("inputs.characters.vocabulary"), 'key "inputs.characters.vocabulary" has 58 entries'),
        ("en-ewt-parser", _longer("labels.lemma_rules"), 'key "labels.lemma_rules" has 845 entries'),
        ("en-ewt-parser", _set("labels.xpos", None), 'key "labels.xpos" is gone or not a list'),
        ("en-ewt-parser", _record("labels.upos", "19"), "must be a whole number"),
        ("en-ewt-parser", _set("exported_lengths", [16002]), 'key "exported_lengths" must be an object'),
        ("en-sst2-sentiment", _longer("labels"), 'key "labels" has 3 entries, but the graph was exported with 2'),
        ("en-ewt-parser", _set("card", "a parser"), 'key "card" must be an object \\(the model card\\) or null'),
        ("en-sst2-sentiment", _set("card.metrics", ["85.45"]), 'key "card.metrics" must be an object, got \\["85'),
        ("en-ewt-parser", _set("tokenizer", None), 'key "tokenizer" must be an object, got null'),
        ("en-ewt-parser", _set("tokenizer", "spacy"), 'key "tokenizer" must be an object, got "spacy"'),
        ("en-ewt-parser", _set("tokenizer.language", 5), 'key "tokenizer.language" must be a string, got 5'),
        ("en-ewt-parser", _set("label_scorer", None), 'key "label_scorer" must be an object'),
        ("en-ewt-parser", _set("label_scorer.bias_x", "false"), 'key "label_scorer.bias_x" must be true or false'),
        ("en-ewt-parser", _set("inputs.words.lowercase", "false"), 'key "inputs.words.lowercase" must be true or'),
        ("en-ewt-parser", _duplicate("inputs.words.vocabulary"), "lists 'the' twice: each id needs a token"),
        ("en-ewt-parser", _set("inputs.characters.vocabulary.2", 5), r"vocabulary\" entry 2 \(5\) must be a string"),
        ("en-sst2-sentiment", _delete("analyzer.lowercase"), 'no "analyzer.lowercase" key'),
        ("en-sst2-sentiment", _delete("analyzer.ngram_range"), 'no "analyzer.ngram_range" key'),
        ("en-sst2-sentiment", _delete("analyzer.token_pattern"), 'no "analyzer.token_pattern" key'),
        ("en-sst2-sentiment", _set("analyzer.lowercase", "yes"), 'key "analyzer.lowercase" must be true or false'),
        ("en-sst2-sentiment", _set("analyzer.ngram_range", [1, 2, 3]), r"two whole numbers \[low, high\], got \[1, 2"),
        ("en-sst2-sentiment", _set("analyzer.type", "char_wb"), 'key "analyzer.type" is "char_wb"; this runtime'),
        (
            "en-sst2-sentiment",
            _set("analyzer.token_pattern", "(unclosed"),
            "token_pattern '\\(unclosed' is not a regular",
        ),
    ],
)
def test_metadata_the_runtime_cannot_use_is_refused_at_load(tmp_path, name, edit, expected):
    folder = _copy(tmp_path, name, edit)
    with pytest.raises(ModelFolderError, match=expected) as caught:
        load(folder)
    assert str(caught.value).startswith(str(folder))


def _shorter(key: str) -> Callable[[dict[str, Any]], None]:
    def edit(meta: dict[str, Any]) -> None:
        labels = meta["labels"]
        if key in labels and isinstance(labels, dict):
            labels[key] = labels[key][:2]
        else:
            meta["labels"] = labels[:1]

    return edit


@pytest.mark.parametrize(
    "name, command, key",
    [
        ("en-ewt-parser", "parse", "deprel"),
        ("en-ewt-parser", "parse", "upos"),
        ("en-ewt-parser", "parse", "feats"),
        ("en-ewt-parser", "parse", "lemma_rules"),
        ("en-sst2-sentiment", "classify", ""),
    ],
)
def test_a_label_list_shorter_than_the_graphs_classes_stops_the_run_with_status_2(tmp_path, capsys, name, command, key):
    folder = _copy(tmp_path, name, _shorter(key))
    source = tmp_path / "in.txt"
    # a label list cut to its first classes: some sentences may still come out right, the run stops
    lines = ["The cat sat on the mat and purred happily.", "A fine film.", "Yes.", "I don't know what she wanted."]
    source.write_text("\n".join(lines * 20) + "\n", encoding="utf-8")
    assert run_runtime([command, str(folder), str(source), "--no-progress", "--batch-size", "2"]) == 2
    err = capsys.readouterr().err
    assert str(folder) in err and "re-export the model" in err and "IndexError" not in err


def test_a_metadata_file_linking_out_of_the_folder_is_refused(tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(REPO_ROOT / "pretrained" / "en-sst2-sentiment", folder)
    elsewhere = tmp_path / "elsewhere.json"
    (folder / META_FILE).rename(elsewhere)
    (folder / META_FILE).symlink_to(elsewhere)
    with pytest.raises(ModelFolderError, match="must stay inside it"):
        load(folder)


def test_metadata_nested_too_deeply_is_unreadable_json_not_a_crash(tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(REPO_ROOT / "pretrained" / "en-sst2-sentiment", folder)
    (folder / META_FILE).write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ModelFolderError, match="nested too deeply"):
        load(folder)


@pytest.mark.parametrize(
    "name, edit, message",
    [
        # its summary read the card's title: a card edited to a string was an AttributeError traceback
        ("en-ewt-parser", _set("card", "my parser"), 'key "card" must be an object'),
        # `models` read the metadata only: folders that classify refused (a bad analyzer) were `ok`
        ("en-sst2-sentiment", _set("analyzer.token_pattern", "(unclosed"), "is not a regular expression"),
    ],
)
def test_green_nlp_models_lists_a_folder_that_would_not_load_as_broken(
    tmp_path, monkeypatch, capsys, name, edit, message
):
    _copy(tmp_path, name, edit)
    monkeypatch.setenv("GREEN_NLP_MODELS", str(tmp_path))
    from green_nlp.cli import main

    with pytest.raises(SystemExit) as done:
        main(["models"])
    assert done.value.code == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(f"{name}\t"))
    assert row.split("\t")[1].startswith("broken: ") and message in row


@pytest.mark.parametrize("language", ["zz", "ja"])  # no such language; one whose tokenizer needs another package
def test_a_tokenizer_language_spacy_cannot_load_stops_the_run_naming_the_key(tmp_path, capsys, language):
    """Every line failed alone with the same message and the run ended 0: the folder is at fault."""
    folder = _copy(tmp_path, "en-ewt-parser", _set("tokenizer.language", language))
    source = tmp_path / "in.txt"
    source.write_text("Hello there.\nA second line.\n", encoding="utf-8")
    assert run_runtime(["parse", str(folder), str(source), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{folder}: green_model.json key tokenizer.language: spaCy has no tokenizer rules for language" in err
    assert err.count("tokenizer.language") == 1 and "Traceback" not in err
    nlp = load(folder)
    assert nlp.parse_tokens(["Hello", "there", "."]).sentences[0].heads  # pre-tokenized input needs no tokenizer
    with pytest.raises(ModelFolderError, match="set it to a language code spacy.blank"):
        nlp.parse("Hello there.")


def test_an_edited_word_list_stops_the_cli_in_one_line_before_any_output(tmp_path, capsys):
    """A longer vocabulary ran every line into onnxruntime's raw Gather error, and the run ended 0."""
    folder = _copy(tmp_path, "en-ewt-parser", _longer("inputs.words.vocabulary"))
    source = tmp_path / "in.txt"
    source.write_text("The cat sat on added-by-hand mat.\n", encoding="utf-8")
    assert run_runtime(["parse", str(folder), str(source), "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "ONNXRuntimeError" not in err and len(err.strip().splitlines()) == 1
    assert str(folder) in err and 'key "inputs.words.vocabulary" has 16003 entries' in err


def test_a_folder_exported_before_the_lengths_were_recorded_still_loads(tmp_path):
    def older(meta: dict[str, Any]) -> None:
        del meta["exported_lengths"]
        _cut("inputs.words.vocabulary")(meta)  # unnoticed, as before

    assert load(_copy(tmp_path, "en-ewt-parser", older)).parse("The cat sat.").sentences


@pytest.mark.parametrize("name", ["en-ewt-parser", "en-sst2-sentiment"])
def test_the_shipped_folders_record_every_list_length(name):
    meta = json.loads((REPO_ROOT / "pretrained" / name / META_FILE).read_text(encoding="utf-8"))
    assert meta["exported_lengths"] == exported_lengths(meta) and sized_lists(meta) == list(meta["exported_lengths"])


def test_the_parsers_recorded_lengths_are_its_graphs_table_rows_and_classes():
    """The recorded figures are the graphs' own: a list the lengths accept fits the graph."""
    folder = REPO_ROOT / "pretrained" / "en-ewt-parser"
    lengths = json.loads((folder / META_FILE).read_text(encoding="utf-8"))["exported_lengths"]
    main = read_onnx_graph(folder / "model.int8.onnx").initializers
    chars = read_onnx_graph(folder / "chars.int8.onnx").initializers
    assert main["model.text_field_embedder.token_embedder_tokens.weight"].shape[0] == lengths["inputs.words.vocabulary"]
    table = "model.text_field_embedder.token_embedder_token_characters._embedding._module.weight"
    assert chars[table].shape[0] == lengths["inputs.characters.vocabulary"]
    # each tag head's last projection: its width is the number of classes
    widths = sorted(array.shape[1] for name, array in main.items() if name.endswith("_quantized"))
    assert {lengths["labels.upos"], lengths["labels.feats"], lengths["labels.xpos"]} <= set(widths)


def test_the_classifiers_recorded_rows_are_its_graphs_table():
    folder = REPO_ROOT / "pretrained" / "en-sst2-sentiment"
    ngrams = json.loads((folder / META_FILE).read_text(encoding="utf-8"))["ngrams"]
    table = read_onnx_graph(folder / "model.int8.onnx").initializers["table_quantized"]
    assert table.shape[0] == ngrams["rows"] == ngrams["first_id"] + ngrams["count"]
