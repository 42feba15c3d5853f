"""`export.graph_shortcuts`: the label biaffine as two MatMuls, the best lemma script from the top
scripts and the character convolution as one MatMul give the outputs of the operators they
replace, ties included, the convolution bit for bit."""

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper

from green_nlp.export.graph_shortcuts import shorten, shorten_folder
from tests.conftest import REPO_ROOT

LABELS, WIDTH_X, WIDTH_Y, CLASSES = 5, 4, 3, 7


def _model(argmax_attributes=None, top_k_attributes=None):
    """A graph with both patterns: label scores of x against y (and W as an output, as the parser
    exports it), and an ArgMax over logits that a TopK also sorts."""
    rng = np.random.default_rng(0)
    weight = rng.normal(size=(LABELS, WIDTH_X, WIDTH_Y)).astype(np.float32)
    nodes = [
        helper.make_node("Einsum", ["x", "W", "y"], ["scores"], equation="...i,oij,...j->...o", name="label_scorer"),
        helper.make_node("Identity", ["W"], ["weight_out"]),
        helper.make_node("ArgMax", ["logits"], ["best"], **(argmax_attributes or {"axis": -1, "keepdims": 0})),
        helper.make_node("TopK", ["logits", "k"], ["top_values", "top"], **(top_k_attributes or {"axis": -1})),
    ]

    def tensor(name, kind, shape):
        return helper.make_tensor_value_info(name, kind, shape)

    graph = helper.make_graph(
        nodes,
        "g",
        [
            tensor("x", TensorProto.FLOAT, ["b", "n", WIDTH_X]),
            tensor("y", TensorProto.FLOAT, ["b", "n", WIDTH_Y]),
            tensor("logits", TensorProto.FLOAT, ["b", "n", CLASSES]),
        ],
        [
            tensor("scores", TensorProto.FLOAT, ["b", "n", LABELS]),
            tensor("weight_out", TensorProto.FLOAT, [LABELS, WIDTH_X, WIDTH_Y]),
            tensor("best", TensorProto.INT64, ["b", "n"]),
            tensor("top", TensorProto.INT64, ["b", "n", 3]),
        ],
        [numpy_helper.from_array(weight, "W"), numpy_helper.from_array(np.array([3], dtype=np.int64), "k")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run(model, feed):
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(["scores", "weight_out", "best", "top"], feed)


def _feed(rng, batch=3, words=6):
    logits = rng.integers(0, 3, size=(batch, words, CLASSES)).astype(np.float32)  # many ties
    return {
        "x": rng.normal(size=(batch, words, WIDTH_X)).astype(np.float32),
        "y": rng.normal(size=(batch, words, WIDTH_Y)).astype(np.float32),
        "logits": logits,
    }


def test_the_shortened_graph_gives_the_same_outputs_ties_included():
    model = _model()
    before = model.SerializeToString()
    assert shorten(model) == 2
    onnx.checker.check_model(model)
    assert {node.op_type for node in model.graph.node}.isdisjoint({"Einsum", "ArgMax"})
    original = onnx.load_from_string(before)
    rng = np.random.default_rng(1)
    for batch, words in ((1, 1), (3, 6), (8, 40)):
        feed = _feed(rng, batch, words)
        expected, got = _run(original, feed), _run(model, feed)
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-6, atol=1e-6)
        for ours, theirs in zip(got[1:], expected[1:]):  # W, the best class: exactly
            np.testing.assert_array_equal(ours, theirs)
    # W is made back from w' (moved values, compared above), not held twice
    assert "W" not in {t.name for t in model.graph.initializer}


@pytest.mark.parametrize(
    "argmax, top_k",
    [
        ({"axis": -1, "keepdims": 0, "select_last_index": 1}, None),  # the last of equal scores
        ({"axis": 1, "keepdims": 0}, None),  # another axis
        ({"axis": -1, "keepdims": 1}, None),  # another shape
        (None, {"axis": -1, "largest": 0}),  # the smallest
        (None, {"axis": -1, "sorted": 0}),  # unsorted: the first is any of the k
    ],
)
def test_an_argmax_the_top_k_does_not_answer_stays(argmax, top_k):
    model = _model(argmax, top_k)
    assert shorten(model) == 1  # the label scores alone
    assert [node.op_type for node in model.graph.node].count("ArgMax") == 1


FILTERS, CHANNELS, KERNEL = 10, 6, 3


def _conv_model(**conv_attributes):
    """Characters' vectors (words, width, channels) -> Transpose -> a 1-D Conv -> the filters' maxima,
    as the character CNN's exported graph has it."""
    rng = np.random.default_rng(3)
    weight = rng.normal(size=(FILTERS, CHANNELS, KERNEL)).astype(np.float32)
    bias = rng.normal(size=FILTERS).astype(np.float32)
    nodes = [
        helper.make_node("Transpose", ["chars"], ["channels_first"], perm=[0, 2, 1]),
        helper.make_node("Conv", ["channels_first", "w", "b"], ["conv"], kernel_shape=[KERNEL], **conv_attributes),
        helper.make_node("ReduceMax", ["conv"], ["vectors"], axes=[2], keepdims=0),
    ]
    graph = helper.make_graph(
        nodes,
        "chars",
        [helper.make_tensor_value_info("chars", TensorProto.FLOAT, ["n", "width", CHANNELS])],
        [
            helper.make_tensor_value_info("vectors", TensorProto.FLOAT, ["n", FILTERS]),
            helper.make_tensor_value_info("conv", TensorProto.FLOAT, ["n", FILTERS, "positions"]),
        ],
        [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_the_character_convolution_as_one_matmul_gives_the_same_bits():
    model = _conv_model()
    original = onnx.load_from_string(model.SerializeToString())
    assert shorten(model) == 1
    onnx.checker.check_model(model)
    assert "Conv" not in {node.op_type for node in model.graph.node}
    assert {"w", "b"}.isdisjoint(t.name for t in model.graph.initializer)  # the Conv's weights, read no more
    rng = np.random.default_rng(4)
    # from one character past the kernel, as the runtime pads: at exactly the kernel's width (one
    # window) onnxruntime's Conv takes another path that rounds differently (`runtime.character_vectors`)
    for words, width in ((1, 4), (64, 4), (7, 5), (40, 9), (3, 30)):
        feed = {"chars": rng.normal(size=(words, width, CHANNELS)).astype(np.float32)}
        expected = _plain_run(original, feed)
        for ours, theirs in zip(_plain_run(model, feed), expected):
            np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("attributes", [{"pads": [1, 1]}, {"strides": [2]}, {"dilations": [2]}, {"group": 2}])
def test_a_convolution_that_is_not_plain_stays(attributes):
    model = _conv_model(**attributes)
    assert shorten(model) == 0 and "Conv" in {node.op_type for node in model.graph.node}


def _plain_run(model, feed):
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, feed)


def test_the_shipped_parser_is_shortened_already(tmp_path):
    """The shipped folder went through the shortcuts, its character encoder too: nothing is left to replace."""
    import shutil

    folder = tmp_path / "parser"
    shutil.copytree(REPO_ROOT / "pretrained" / "en-ewt-parser", folder)
    assert shorten_folder(folder) == 0
    graph = onnx.load(str(folder / "model.int8.onnx")).graph
    assert "Einsum" in {node.op_type for node in graph.node}  # the arc scorer's stays
    assert not any(node.op_type == "ArgMax" and node.output[0] == "lemma_rules_tags" for node in graph.node)
    assert "Conv" not in {node.op_type for node in onnx.load(str(folder / "chars.int8.onnx")).graph.node}


def test_exported_parsers_are_shortened(parser_folders):
    graph = onnx.load(str(parser_folders["quickstart"] / "model.onnx")).graph
    equations = [a.s for node in graph.node if node.op_type == "Einsum" for a in node.attribute]
    assert b"...i,oij,...j->...o" not in equations and b"bxi,oij,byj->boxy" in equations
    encoder = onnx.load(str(parser_folders["quickstart"] / "chars.onnx")).graph
    assert "Conv" not in {node.op_type for node in encoder.node} and "MatMul" in {node.op_type for node in encoder.node}
