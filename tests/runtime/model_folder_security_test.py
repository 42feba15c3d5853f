"""Model folders from elsewhere: no file outside the folder is opened, a changed or broken file is
refused with one line naming the folder, and `green-nlp models` shows a broken folder as broken.

Runs on a copy of the shipped sentiment folder (runtime only: no torch, no allennlp)."""

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from green_nlp.cli import run_runtime
from green_nlp.runtime import load
from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.model_folder import META_FILE, folder_state, record_file_hashes
from tests.conftest import REPO_ROOT

SHIPPED = REPO_ROOT / "pretrained" / "en-sst2-sentiment"
GRAPH = "model.int8.onnx"

# Python-level opens of files, recorded while `_opened` is armed (audit hooks cannot be removed, so
# one hook is added for the whole run and does nothing unless a test arms it)
_opened: list[str] = []
_armed = [False]


def _audit(event: str, args: Any) -> None:
    if _armed[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        _opened.append(os.path.realpath(os.fsdecode(args[0])))


sys.addaudithook(_audit)


@pytest.fixture
def folder(tmp_path) -> Path:
    copy = tmp_path / "models" / "sentiment"
    shutil.copytree(SHIPPED, copy)
    return copy


@pytest.fixture
def outside(tmp_path) -> Path:
    """A valid graph and n-gram list outside the folder: followed, they would load without error."""
    place = tmp_path / "outside"
    place.mkdir()
    for name in (GRAPH, "ngrams.txt"):
        shutil.copy(SHIPPED / name, place / name)
    return place


def _meta(folder: Path) -> dict[str, Any]:
    return json.loads((folder / META_FILE).read_text(encoding="utf-8"))


def _write_meta(folder: Path, meta: dict[str, Any]) -> None:
    (folder / META_FILE).write_text(json.dumps(meta), encoding="utf-8")


def _refused(folder: Path, outside: Path, *messages: str) -> str:
    """Load the folder, expecting a refusal naming the folder; no Python open of a file outside."""
    _opened.clear()
    _armed[0] = True
    try:
        with pytest.raises(ModelFolderError) as caught:
            load(folder)
    finally:
        _armed[0] = False
    text = str(caught.value)
    assert text.startswith(str(folder)) and "\n" not in text
    for message in messages:
        assert message in text
    assert not [path for path in _opened if path.startswith(str(outside))]
    return text


def test_the_shipped_copy_loads_and_is_ok(folder):
    assert load(folder).classify("a fine film").label == "positive"
    assert folder_state(folder) == "ok"


@pytest.mark.parametrize("hashes", [True, False], ids=["recorded", "unrecorded"])
def test_a_graph_path_out_of_the_folder_is_refused(folder, outside, hashes):
    meta = _meta(folder)
    meta["files"]["int8"] = f"../../outside/{GRAPH}"
    if not hashes:  # only the containment check stands between the folder and the outside file
        del meta["sha256"]
    _write_meta(folder, meta)
    _refused(folder, outside, "files.int8", f"../../outside/{GRAPH}", "outside the folder")


def test_an_absolute_path_is_refused(folder, outside):
    meta = _meta(folder)
    meta["ngrams"]["file"] = str(outside / "ngrams.txt")
    del meta["sha256"]
    _write_meta(folder, meta)
    _refused(folder, outside, "ngrams.file", "outside the folder")


def test_a_card_file_out_of_the_folder_is_refused(folder, outside):
    meta = _meta(folder)
    meta["card"]["file"] = "../../../../../../../../etc/passwd"
    _write_meta(folder, meta)
    _refused(folder, outside, "card.file", "etc/passwd")


def test_a_symlink_out_of_the_folder_is_refused(folder, outside):
    (folder / GRAPH).unlink()
    (folder / GRAPH).symlink_to(outside / GRAPH)
    meta = _meta(folder)
    del meta["sha256"]
    _write_meta(folder, meta)
    _refused(folder, outside, "files.int8", "outside the folder")


def test_a_symlinked_n_gram_list_is_refused(folder, outside):
    (folder / "ngrams.txt").unlink()
    (folder / "ngrams.txt").symlink_to(outside / "ngrams.txt")
    _refused(folder, outside, "ngrams.file", "outside the folder")


def test_a_changed_byte_in_the_graph_is_refused(folder, outside):
    data = bytearray((folder / GRAPH).read_bytes())
    data[len(data) // 2] ^= 1
    (folder / GRAPH).write_bytes(bytes(data))
    _refused(folder, outside, GRAPH, "does not match the sha256")


def test_a_changed_n_gram_list_is_refused(folder, outside):
    with open(folder / "ngrams.txt", "a", encoding="utf-8") as handle:
        handle.write("extra\n")
    _refused(folder, outside, "ngrams.txt", "does not match the sha256")


def test_a_file_without_a_recorded_hash_is_refused(folder, outside):
    meta = _meta(folder)
    del meta["sha256"]["ngrams.txt"]
    _write_meta(folder, meta)
    _refused(folder, outside, "records no sha256 for ngrams.txt")


def test_missing_labels_are_named(folder, outside):
    meta = _meta(folder)
    del meta["labels"]
    _write_meta(folder, meta)
    _refused(folder, outside, '"labels"', "classifier")


def test_a_label_list_of_the_wrong_type_is_named(folder, outside):
    meta = _meta(folder)
    meta["labels"] = "positive"
    _write_meta(folder, meta)
    _refused(folder, outside, '"labels" must be a list')


def _unrecorded(folder: Path) -> None:
    meta = _meta(folder)
    del meta["sha256"]
    _write_meta(folder, meta)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "is empty"),
        (b"this is not an onnx graph at all\n" * 20, "is not an ONNX model"),
        (None, "is truncated"),  # the shipped graph cut in half
    ],
    ids=["empty", "garbage", "truncated"],
)
@pytest.mark.parametrize("hashes", [True, False], ids=["recorded", "unrecorded"])
def test_a_broken_graph_is_refused(folder, outside, content, message, hashes):
    if hashes:  # the recorded hash catches it first
        message = "does not match the sha256"
    else:  # an older folder: the ONNX check does
        _unrecorded(folder)
    data = (folder / GRAPH).read_bytes()
    (folder / GRAPH).write_bytes(data[: len(data) // 2] if content is None else content)
    _refused(folder, outside, GRAPH, message)
    assert folder_state(folder).startswith("broken: ")


def test_a_graph_only_onnxruntime_refuses_is_named(folder, outside):
    """Whole at the top level (ir_version, an empty graph, an empty opset_import), unusable inside."""
    _unrecorded(folder)
    (folder / GRAPH).write_bytes(b"\x08\x07\x3a\x00\x42\x00")
    _refused(folder, outside, GRAPH, "onnxruntime")


def test_metadata_saved_with_a_byte_order_mark_loads_and_a_list_is_named(folder):
    """An editor (Notepad) saves UTF-8 with a byte-order mark; a list was reported as format_version None."""
    path = folder / META_FILE
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load(folder).classify("a dull film").label == "negative"
    path.write_text("[]\n", encoding="utf-8")
    with pytest.raises(ModelFolderError, match=r"green_model.json is not a JSON object \(\{...\}\) but list"):
        load(folder)


def test_a_folder_without_hashes_loads_with_a_warning(folder, caplog):
    _unrecorded(folder)
    with caplog.at_level(logging.WARNING):
        assert load(folder).classify("a fine film").label == "positive"
    assert "records no sha256" in caplog.text and str(folder) in caplog.text


def test_record_file_hashes_adds_only_the_hashes(folder):
    meta = _meta(folder)
    del meta["sha256"]
    (folder / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    record_file_hashes(folder)
    text = (folder / META_FILE).read_text(encoding="utf-8")
    recorded = json.loads(text)
    assert set(recorded.pop("sha256")) == {GRAPH, "ngrams.txt", "ngrams.index.npz", "README.md"}
    assert recorded == meta and text.startswith('{\n  "format_version"')
    assert load(folder).classify("a dull film").label == "negative"
    (folder / "ngrams.txt").write_text("changed\n", encoding="utf-8")
    record_file_hashes(folder)  # re-recorded: the hash is accepted, the index built from the old list is not
    with pytest.raises(ValueError, match="numbers other n-grams than ngrams.txt holds"):
        load(folder)
    meta = _meta(folder)
    del meta["ngrams"]["index"]  # without the index, the list itself is read: its count fails
    (folder / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    record_file_hashes(folder)
    with pytest.raises(ValueError, match="1 n-grams, the metadata says 200000"):
        load(folder)


def test_models_lists_a_broken_folder_as_broken(folder, monkeypatch, capsys):
    broken = folder.parent / "broken"
    shutil.copytree(folder, broken)
    (broken / GRAPH).write_bytes(b"")
    monkeypatch.setenv("GREEN_NLP_MODELS", str(folder.parent))
    assert run_runtime(["models"]) == 0
    rows = {line.split("\t")[0]: line.split("\t") for line in capsys.readouterr().out.splitlines()}
    assert rows["sentiment"][1] == "ok"
    assert rows["broken"][1].startswith("broken: ") and GRAPH in rows["broken"][1]


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "green_nlp.cli", *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.mark.parametrize("command", ["classify", "serve"])
def test_the_cli_and_the_server_refuse_a_garbage_graph_in_one_line(folder, tmp_path, command):
    _unrecorded(folder)
    (folder / GRAPH).write_bytes(b"garbage" * 100)
    texts = tmp_path / "in.txt"
    texts.write_text("a fine film\n", encoding="utf-8")
    result = _run(command, str(folder), str(texts)) if command == "classify" else _run(command, str(folder))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if str(folder) in line and GRAPH in line]
    assert len(lines) == 1 and "is not an ONNX model" in lines[0]
