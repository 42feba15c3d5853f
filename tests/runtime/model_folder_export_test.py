"""`allennlp green-export` records the sha256 of every file it writes, and the folder loads checked."""

import json

import pytest

from green_nlp.runtime import load
from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.folder_files import sha256_file
from green_nlp.runtime.folder_schema import exported_lengths
from green_nlp.runtime.model_folder import META_FILE

pytest.importorskip("allennlp", reason="exporting needs the training stack")


def test_an_exported_folder_records_its_hashes_and_a_changed_graph_is_refused(parser_folders, tmp_path):
    folder = parser_folders["words_only"]
    meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    graphs = sorted(meta["files"].values())
    assert sorted(meta["sha256"]) == graphs  # both graphs; this export has no card file in the folder
    assert all(meta["sha256"][name] == sha256_file(folder / name) for name in graphs)
    # the length of each vocabulary and label list, checked at load (an edited list is refused)
    assert meta["exported_lengths"] == exported_lengths(meta)
    assert {"inputs.words.vocabulary", "labels.deprel"} <= set(meta["exported_lengths"])
    for precision in ("fp32", "int8"):
        assert load(folder, precision=precision).parse("The cat sat .").sentences
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in folder.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    graph = copy / meta["files"]["int8"]
    graph.write_bytes(graph.read_bytes()[:-1])
    with pytest.raises(ModelFolderError, match="does not match the sha256"):
        load(copy, precision="int8")
    assert load(copy, precision="fp32").parse("The cat sat .").sentences  # the other graph is not read
