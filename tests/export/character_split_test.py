"""A parser folder split at its character encoder (`export.character_split`) answers exactly as the
one-graph folder it came from, and a one-graph folder still loads."""

import json
import shutil

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from green_nlp.export import export_archive
from green_nlp.export.character_split import ENCODER_FILES, VECTORS, split_character_encoder, split_graph
from green_nlp.runtime import load
from green_nlp.runtime.model_folder import META_FILE
from tests.conftest import FIXTURES

LINES = (FIXTURES / "raw_text.txt").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def one_graph(parser_archives, tmp_path_factory):
    """The quickstart parser (characters, UPOS head) exported as folders were before the split."""
    return export_archive(
        parser_archives["quickstart"], tmp_path_factory.mktemp("one_graph") / "quickstart", split_graphs=False
    )


def _parses(folder, precision):
    nlp = load(folder, precision=precision)
    return [doc.to_conllu() for doc in nlp.parse_many(LINES, batch_size=2, sort_window=4)], nlp


def test_export_writes_the_encoder_of_each_precision_and_records_its_hash(parser_folders):
    folder = parser_folders["quickstart"]
    meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    chars = meta["inputs"]["characters"]
    assert chars["encoder"] == {"files": ENCODER_FILES, "output": VECTORS}
    assert chars["vectors_input"] == VECTORS
    for name in ENCODER_FILES.values():
        assert (folder / name).is_file() and name in meta["sha256"]
    graph = onnx.load(str(folder / "model.onnx")).graph
    assert [i.name for i in graph.input] == ["word_ids", VECTORS, "char_index"]
    assert not any(node.op_type == "Conv" for node in graph.node)  # the CNN is in the encoder alone


@pytest.mark.parametrize("name", ENCODER_FILES.values())
def test_the_encoders_embedding_keeps_the_rows_the_character_ids_reach(parser_folders, one_graph, name):
    """The config's character embedding is sized by the word vocabulary; the split keeps the rows
    of the character vocabulary, which every id the runtime feeds is below."""
    meta = json.loads((parser_folders["quickstart"] / META_FILE).read_text(encoding="utf-8"))
    rows = len(meta["inputs"]["characters"]["vocabulary"])
    words = len(meta["inputs"]["words"]["vocabulary"])
    whole = {t.name: list(t.dims) for t in onnx.load(str(one_graph / name.replace("chars", "model"))).graph.initializer}
    kept = {t.name: list(t.dims) for t in onnx.load(str(parser_folders["quickstart"] / name)).graph.initializer}
    # (the one-graph folder skipped the shortcuts: the convolution's MatMul weight is the split folder's alone)
    tables = [table for table, dims in kept.items() if len(dims) == 2 and table in whole and whole[table] != dims]
    assert len(tables) == 1 and "_embedding" in tables[0]
    assert whole[tables[0]][0] == words > rows and kept[tables[0]][0] == rows


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_the_split_folder_parses_byte_identically_to_the_one_graph_folder(parser_folders, one_graph, precision):
    split, nlp = _parses(parser_folders["quickstart"], precision)
    whole, old = _parses(one_graph, precision)
    assert old.character_vectors is None and nlp.character_vectors is not None
    assert split == whole
    assert len(nlp.character_vectors) > 0


def test_splitting_an_old_folder_in_place_keeps_its_answers_and_a_second_split_does_nothing(one_graph, tmp_path):
    folder = tmp_path / "old"
    shutil.copytree(one_graph, folder)
    assert split_character_encoder(folder) is True
    assert split_character_encoder(folder) is False
    for precision in ("fp32", "int8"):
        assert _parses(folder, precision)[0] == _parses(one_graph, precision)[0]


def test_a_parser_without_characters_has_nothing_to_split(parser_folders):
    folder = parser_folders["words_only"]
    assert split_character_encoder(folder) is False
    assert not any((folder / name).exists() for name in ENCODER_FILES.values())


def _graph(nodes, inputs, outputs):
    def tensor(name, kind):
        return helper.make_tensor_value_info(name, kind, None)

    graph = helper.make_graph(
        nodes,
        "g",
        [tensor(name, kind) for name, kind in inputs],
        [tensor(name, TensorProto.FLOAT) for name in outputs],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_a_graph_whose_characters_reach_the_outputs_another_way_is_refused(tmp_path):
    ints = TensorProto.INT64
    nodes = [
        helper.make_node("Cast", ["char_ids"], ["vectors"], to=TensorProto.FLOAT),
        helper.make_node("Gather", ["vectors", "char_index"], ["placed"]),
        helper.make_node("Cast", ["char_ids"], ["also"], to=TensorProto.FLOAT),  # a second way out
    ]
    path = tmp_path / "model.onnx"
    onnx.save(_graph(nodes, [("char_ids", ints), ("char_index", ints)], ["placed", "also"]), str(path))
    with pytest.raises(ValueError, match="other than through the encoder"):
        split_graph(path, tmp_path / "chars.onnx", "char_index", "char_ids", 5)
    onnx.save(_graph(nodes[:1], [("char_ids", ints)], ["vectors"]), str(path))
    with pytest.raises(ValueError, match="no Gather reads 'char_index'"):
        split_graph(path, tmp_path / "chars.onnx", "char_index", "char_ids", 5)


def test_the_encoder_gives_what_the_whole_graph_gave_each_word(parser_folders, one_graph):
    """The cut is the vectors the places' rows gather from: the one-graph model fed those vectors
    through its own CNN gives the same arc scores as the split model fed the encoder's."""
    split, whole = load(parser_folders["quickstart"], precision="fp32"), load(one_graph, precision="fp32")
    words = [w.split() for w in LINES[:3]]
    got = split.session.run(["arc_scores"], split.inputs.feed(words, [None] * 3))[0]
    expected = whole.session.run(["arc_scores"], whole.inputs.feed(words, [None] * 3))[0]
    np.testing.assert_array_equal(got, expected)
