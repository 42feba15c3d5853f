"""Fixed int8 scales where `green_nlp.export.value_ranges` bounds an input from the weights: an
embedding lookup feeding a MatMul (one QuantizeLinear) or an LSTM (pinned, clipped input), and the
character CNN's bound. A row's output must not depend on the rows batched with it."""

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic

from green_nlp.export.deterministic_int8 import rewrite_file
from green_nlp.export.value_ranges import ValueRanges

VOCAB, DIM, HIDDEN = 60, 12, 10


def _save(nodes, inputs, outputs, initializers, path):
    graph = helper.make_graph(
        nodes, "g", inputs, outputs, [numpy_helper.from_array(v, k) for k, v in initializers.items()]
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def _session(path, threads=1):
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _embedding_lstm(tmp_path, rng, from_table=True):
    """ids (steps, batch) -> Gather(table) -> LSTM -> y (steps, 1, batch, HIDDEN); or x -> LSTM."""
    table = (rng.normal(size=(VOCAB, DIM)) * 2).astype(np.float32)
    weights = {
        "W": rng.normal(size=(1, 4 * HIDDEN, DIM)).astype(np.float32) / 3,
        "R": rng.normal(size=(1, 4 * HIDDEN, HIDDEN)).astype(np.float32) / 3,
        "B": rng.normal(size=(1, 8 * HIDDEN)).astype(np.float32) / 3,
    }
    nodes = [helper.make_node("LSTM", ["e", "W", "R", "B"], ["y"], hidden_size=HIDDEN)]
    if from_table:
        nodes.insert(0, helper.make_node("Gather", ["table", "ids"], ["e"]))
        weights["table"] = table
        inputs = [helper.make_tensor_value_info("ids", TensorProto.INT64, ["steps", "batch"])]
    else:
        inputs = [helper.make_tensor_value_info("e", TensorProto.FLOAT, ["steps", "batch", DIM])]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    fp32, int8 = tmp_path / "lstm.onnx", tmp_path / "lstm.int8.onnx"
    _save(nodes, inputs, outputs, weights, fp32)
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, op_types_to_quantize=["LSTM"])
    return fp32, int8


def test_an_lstm_on_embeddings_stays_int8_with_a_fixed_input_range(tmp_path):
    rng = np.random.default_rng(3)
    fp32, int8 = _embedding_lstm(tmp_path, rng)
    ids = rng.integers(0, VOCAB, (9, 12)).astype(np.int64)
    before = _session(int8).run(None, {"ids": ids})[0]
    assert not np.array_equal(before[:, :, :1], _session(int8).run(None, {"ids": ids[:, :1]})[0])  # per call
    assert rewrite_file(int8)["DynamicQuantizeLSTM"] == 1
    ops = [node.op_type for node in onnx.load(str(int8)).graph.node]
    assert "DynamicQuantizeLSTM" in ops and "LSTM" not in ops and "Clip" in ops
    session = _session(int8)
    together = session.run(None, {"ids": ids})[0]
    for column in range(12):
        alone = session.run(None, {"ids": ids[:, column : column + 1]})[0]
        assert np.array_equal(together[:, :, column], alone[:, :, 0])
    assert np.array_equal(_session(int8, threads=2).run(None, {"ids": ids})[0], together)
    expected = _session(fp32).run(None, {"ids": ids})[0]
    assert np.abs(together - expected).max() < 0.1


def test_an_lstm_on_an_unbounded_input_runs_in_float(tmp_path):
    _, int8 = _embedding_lstm(tmp_path, np.random.default_rng(4), from_table=False)
    rewrite_file(int8)
    ops = [node.op_type for node in onnx.load(str(int8)).graph.node]
    assert "LSTM" in ops and "DynamicQuantizeLSTM" not in ops


def test_a_matmul_on_embeddings_gets_one_static_quantize_linear(tmp_path):
    rng = np.random.default_rng(5)
    weights = {
        "table": rng.normal(size=(VOCAB, 80)).astype(np.float32),
        "w": rng.normal(size=(80, 64)).astype(np.float32),
    }
    nodes = [helper.make_node("Gather", ["table", "ids"], ["e"]), helper.make_node("MatMul", ["e", "w"], ["y"])]
    fp32, int8 = tmp_path / "mm.onnx", tmp_path / "mm.int8.onnx"
    _save(
        nodes,
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 64])],
        weights,
        fp32,
    )
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])
    rewrite_file(int8)
    ops = [node.op_type for node in onnx.load(str(int8)).graph.node]
    assert "QuantizeLinear" in ops and "ReduceMin" not in ops and "DynamicQuantizeLinear" not in ops
    ids = rng.integers(0, VOCAB, 50).astype(np.int64)
    session = _session(int8)
    together = session.run(None, {"ids": ids})[0]
    assert all(np.array_equal(together[i], session.run(None, {"ids": ids[i : i + 1]})[0][0]) for i in range(50))
    expected = _session(fp32).run(None, {"ids": ids})[0]
    assert np.abs(together - expected).max() <= 0.05 * np.abs(expected).max()


def test_the_character_cnn_bound_holds_and_is_tighter_than_the_weight_norm(tmp_path):
    """Gather -> mask -> Transpose -> Conv -> Relu -> max over places: the tap-wise bound from the
    table rows holds for every word and is below |bias| + sum |W| x max |E|."""
    rng = np.random.default_rng(6)
    table = rng.normal(size=(VOCAB, 6)).astype(np.float32)
    weight = rng.normal(size=(5, 6, 3)).astype(np.float32)
    bias = rng.normal(size=5).astype(np.float32)
    nodes = [
        helper.make_node("Gather", ["table", "chars"], ["e"]),
        helper.make_node("Equal", ["chars", "zero"], ["pad"]),
        helper.make_node("Not", ["pad"], ["real"]),
        helper.make_node("Cast", ["real"], ["real_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["real_f", "last"], ["mask"]),
        helper.make_node("Mul", ["e", "mask"], ["masked"]),
        helper.make_node("Transpose", ["masked"], ["channels"], perm=[0, 2, 1]),
        helper.make_node("Conv", ["channels", "weight", "bias"], ["conv"], kernel_shape=[3]),
        helper.make_node("Relu", ["conv"], ["relu"]),
        helper.make_node("ReduceMax", ["relu"], ["y"], axes=[2], keepdims=0),
    ]
    initializers = {"table": table, "weight": weight, "bias": bias, "zero": np.array(0, np.int64)}
    initializers["last"] = np.array([-1], np.int64)
    path = tmp_path / "cnn.onnx"
    _save(
        nodes,
        [helper.make_tensor_value_info("chars", TensorProto.INT64, ["words", "places"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializers,
        path,
    )
    low, high = ValueRanges(onnx.load(str(path)).graph).range("y")
    chars = rng.integers(0, VOCAB, (4000, 7)).astype(np.int64)
    chars[::3, 4:] = 0  # padded words
    y = _session(path).run(None, {"chars": chars})[0]
    assert low == 0.0 and y.min() >= low and y.max() <= high
    assert high < float(np.abs(bias).max() + np.abs(weight).sum((1, 2)).max() * np.abs(table).max())
    assert y.max() > 0.5 * high  # not a loose bound
