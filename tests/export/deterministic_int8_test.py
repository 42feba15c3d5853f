"""`green_nlp.export.deterministic_int8` on small graphs: a row's output does not depend on the rows
batched with it, and stays within int8 tolerance of the fp32 math."""

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic

from green_nlp.export.deterministic_int8 import is_deterministic, make_deterministic, rewrite_file


def _mlp(path, rng):
    """x (batch, 16) -> MatMul -> Relu -> MatMul -> y (batch, 3), fp32. The first weight is over
    SMALL_MATMUL (quantized per row), the second under it (a float MatMul)."""
    w1 = numpy_helper.from_array(rng.normal(size=(16, 300)).astype(np.float32) / 4, "w1")
    w2 = numpy_helper.from_array(rng.normal(size=(300, 3)).astype(np.float32) / 4, "w2")
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"]),
        helper.make_node("Relu", ["h"], ["r"]),
        helper.make_node("MatMul", ["r", "w2"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])],
        [w1, w2],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def _run(path, x, threads=1):
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


@pytest.fixture
def graphs(tmp_path):
    rng = np.random.default_rng(0)
    fp32, int8 = tmp_path / "fp32.onnx", tmp_path / "int8.onnx"
    _mlp(fp32, rng)
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])
    return fp32, int8, rng


def test_per_batch_quantization_changed_a_row_and_the_rewrite_does_not(graphs, tmp_path):
    fp32, int8, rng = graphs
    row = rng.normal(size=(1, 16)).astype(np.float32)
    loud = np.concatenate([row, 50 * rng.normal(size=(6, 16)).astype(np.float32)])
    # today's graph: a loud neighbour widens the batch's scale and moves the row's answer
    assert not np.array_equal(_run(int8, row)[0], _run(int8, loud)[0])
    counts = rewrite_file(int8)
    assert counts["DynamicQuantizeLinear"] == 2
    ops = [node.op_type for node in onnx.load(str(int8)).graph.node]
    assert ops.count("MatMulInteger") == 1 and "ReduceMin" in ops  # w1: per-row scales
    assert ops.count("MatMul") == 1  # w2 (900 weights): a float MatMul
    alone = _run(int8, row)[0]
    for batch in (loud, np.repeat(row, 33, 0), np.concatenate([loud[1:], row])):
        got = _run(int8, batch)
        position = int(np.flatnonzero((batch == row).all(1))[0])
        assert np.array_equal(got[position], alone)
    assert np.array_equal(_run(int8, loud, threads=2), _run(int8, loud, threads=1))


def test_the_rewrite_stays_close_to_fp32(graphs):
    fp32, int8, rng = graphs
    x = rng.normal(size=(64, 16)).astype(np.float32)
    rewrite_file(int8)
    expected, got = _run(fp32, x), _run(int8, x)
    assert np.abs(got - expected).max() <= 0.03 * np.abs(expected).max()


def test_a_zero_row_gives_the_bias_free_zero(graphs):
    fp32, int8, _ = graphs
    rewrite_file(int8)
    assert np.array_equal(_run(int8, np.zeros((2, 16), np.float32)), np.zeros((2, 3), np.float32))


def test_a_small_matmul_past_a_large_one_is_float_and_row_independent(graphs):
    _, int8, rng = graphs
    rewrite_file(int8)
    x = rng.normal(size=(40, 16)).astype(np.float32)
    together = _run(int8, x)
    assert all(np.array_equal(together[i], _run(int8, x[i : i + 1])[0]) for i in range(40))


def test_rewriting_twice_changes_nothing(graphs):
    _, int8, _ = graphs
    rewrite_file(int8)
    before = int8.read_bytes()
    assert rewrite_file(int8) == {} and int8.read_bytes() == before
    assert is_deterministic(onnx.load(str(int8)))


def test_an_unhandled_reader_of_the_quantized_input_is_refused(graphs):
    _, int8, _ = graphs
    model = onnx.load(str(int8))
    quantized = next(n for n in model.graph.node if n.op_type == "DynamicQuantizeLinear").output[0]
    model.graph.node.append(helper.make_node("Identity", [quantized], ["leak"]))
    with pytest.raises(ValueError, match="Identity"):
        make_deterministic(model)


def test_a_dequantized_sum_becomes_an_exact_integer_sum(tmp_path):
    """The DAN's pooled int8 table: summed as int32, so padding length cannot change the float rounding."""
    table = numpy_helper.from_array(np.random.default_rng(1).integers(0, 255, (50, 4)).astype(np.uint8), "table")
    scale = numpy_helper.from_array(np.array(0.037, np.float32), "scale")
    zero = numpy_helper.from_array(np.array(129, np.uint8), "zero")
    axes = numpy_helper.from_array(np.array([1], np.int64), "axes")
    nodes = [
        helper.make_node("Gather", ["table", "x"], ["rows"]),
        helper.make_node("DequantizeLinear", ["rows", "scale", "zero"], ["values"]),
        helper.make_node("ReduceSum", ["values", "axes"], ["y"], keepdims=0),
    ]
    graph = helper.make_graph(
        nodes,
        "pool",
        [helper.make_tensor_value_info("x", TensorProto.INT64, ["batch", "n"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
        [table, scale, zero, axes],
    )
    path = tmp_path / "pool.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    assert rewrite_file(path)["DequantizeLinear+ReduceSum"] == 1
    assert "DequantizeLinear" not in {node.op_type for node in onnx.load(str(path)).graph.node}
    ids = np.array([[3, 7, 9, 11], [11, 9, 7, 3]], np.int64)
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(None, {"x": ids})[0]
    exact = (numpy_helper.to_array(table).astype(np.int64) - 129)[[3, 7, 9, 11]].sum(0)
    assert np.array_equal(got[0], (exact * np.float32(0.037)).astype(np.float32))
    assert np.array_equal(got[0], got[1])  # order of the n-grams does not change the rounding
