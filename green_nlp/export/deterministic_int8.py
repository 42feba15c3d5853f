"""Make an int8 ONNX graph give each row (token, text) the same answer whatever is batched with it.

onnxruntime's `quantize_dynamic` quantizes activations with one scale per model call:
`DynamicQuantizeLinear` takes the min/max of the whole batch tensor, and `DynamicQuantizeLSTM`
quantizes its input sequence and, at every step, the hidden states of all sentences together (and
its threaded kernel splits the batch between threads, which quantize their parts apart). So a text's
answer depended on its neighbours in the batch, the runtime's length sorting and `--threads`.

This module rewrites such a graph, with plain ONNX operators and the same int8 weights:

- where `green_nlp.export.value_ranges` bounds the quantized input from the graph's weights (an
  LSTM's output lies in [-1, 1]; the embeddings and character CNN between their tables' extremes),
  the scale is fixed: a `DynamicQuantizeLinear` becomes one `QuantizeLinear` with constant scale and
  zero point, and a `DynamicQuantizeLSTM` gets two pinned input columns holding the bound (its input
  clipped to it) and two pinned hidden units, so its per-call ranges are the same in every call;
- a `DynamicQuantizeLinear` with no bound, read by small `MatMulInteger`s (at most SMALL_MATMUL
  weights, the DAN's layers), becomes a float `MatMul` on the int8 weights scaled back;
- any other `DynamicQuantizeLinear` -> `MatMulInteger` pair gets one scale and zero point per row
  (ReduceMin/ReduceMax over the last axis, the same asymmetric uint8 arithmetic per row instead of
  per tensor); the row zero point is taken out of the int32 product exactly (q - zp) @ W =
  q @ W - zp * column sums of W, so MatMulInteger keeps its scalar zero point and fast kernel;
- a `DynamicQuantizeLSTM` on an input with no bound becomes a float `LSTM` whose weights are the
  int8 weights times their scales (kept int8 in the file; onnxruntime folds the Cast and Mul into
  constants when it loads);
- `DequantizeLinear` -> `ReduceSum` (the DAN's pooled n-gram table rows) sums the int8 values as
  int32, exactly, then scales once: a float sum's rounding would depend on the padded length.

Everything left is row-wise or exact, so a row's output is byte-identical at any batch size, sort
window and thread count (tests/export/deterministic_int8_test.py, tests/runtime/determinism_test.py).

    python -m green_nlp.export.deterministic_int8 FOLDER [FOLDER ...]

rewrites each folder's `model.int8.onnx` in place (a graph already rewritten is left as it is: to
rewrite it with a newer version of this module, start again from the graph `quantize_dynamic` wrote).
"""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from green_nlp.export.value_ranges import Range, value_ranges

PathLike = Union[str, Path]

# written into the graph's metadata, so a rewritten graph is recognised and not rewritten twice
MARK_KEY = "green_nlp.deterministic_int8"
MARK_VALUE = "1"
# the smallest normal float32: the scale of an all-zero row (any positive scale quantizes it to 0)
TINY_SCALE = float(np.finfo(np.float32).tiny)


class _Graph:
    """Name bookkeeping for the rewrite: fresh names, new constants, consumers of a value."""

    def __init__(self, model: onnx.ModelProto) -> None:
        self.model = model
        self.graph = model.graph
        self.opset = next((entry.version for entry in model.opset_import if entry.domain in ("", "ai.onnx")), 17)
        self.initializers = {init.name: init for init in self.graph.initializer}
        self._names = {value for node in self.graph.node for value in (*node.input, *node.output)}
        self._names |= {node.name for node in self.graph.node} | set(self.initializers)
        self._names |= {value.name for value in self.graph.input}

    def name(self, base: str) -> str:
        candidate, index = base, 0
        while candidate in self._names:
            index += 1
            candidate = f"{base}_{index}"
        self._names.add(candidate)
        return candidate

    def constant(self, base: str, value: np.ndarray) -> str:
        name = self.name(base)
        tensor = numpy_helper.from_array(np.asarray(value), name)
        self.graph.initializer.append(tensor)
        self.initializers[name] = tensor
        return name

    def array(self, name: str) -> Optional[np.ndarray]:
        init = self.initializers.get(name)
        return None if init is None else numpy_helper.to_array(init)

    def consumers(self, value: str) -> list[onnx.NodeProto]:
        return [node for node in self.graph.node if value in node.input]

    def node(self, op: str, inputs: Sequence[str], base: str, **attributes: Any) -> tuple[onnx.NodeProto, str]:
        output = self.name(base)
        return helper.make_node(op, list(inputs), [output], name=self.name(f"{base}_node"), **attributes), output

    def reduce(self, op: str, value: str, base: str, keepdims: int = 1) -> tuple[onnx.NodeProto, str]:
        """`op` (ReduceMin/ReduceMax) over the last axis, in the form this opset takes its axes."""
        if self.opset >= 18:
            return self.node(
                op, [value, self.constant(f"{base}_axes", np.array([-1], np.int64))], base, keepdims=keepdims
            )
        return self.node(op, [value], base, axes=[-1], keepdims=keepdims)


def _row_quantize(g: _Graph, x: str, base: str) -> tuple[list[onnx.NodeProto], str, str, str]:
    """Nodes quantizing `x` (..., K) to uint8 with one asymmetric scale per row, as
    DynamicQuantizeLinear does per tensor: range [min(0, row min), max(0, row max)] over 255 steps.
    Returns (nodes, q uint8 (..., K), scale float (..., 1), zero point int32 (..., 1))."""
    zero = g.constant(f"{base}_zero", np.array(0.0, np.float32))
    nodes = []

    def add(op: str, inputs: Sequence[str], name: str, **attributes: Any) -> str:
        node, output = g.node(op, inputs, f"{base}_{name}", **attributes)
        nodes.append(node)
        return output

    def reduce(op: str, name: str) -> str:
        node, output = g.reduce(op, x, f"{base}_{name}")
        nodes.append(node)
        return output

    low = add("Min", [reduce("ReduceMin", "row_min"), zero], "low")
    high = add("Max", [reduce("ReduceMax", "row_max"), zero], "high")
    span = add("Sub", [high, low], "span")
    scale = add("Div", [span, g.constant(f"{base}_levels", np.array(255.0, np.float32))], "scale")
    scale = add("Max", [scale, g.constant(f"{base}_tiny", np.array(TINY_SCALE, np.float32))], "row_scale")
    qmin = g.constant(f"{base}_qmin", np.array(0.0, np.float32))
    qmax = g.constant(f"{base}_qmax", np.array(255.0, np.float32))
    zero_point = add("Neg", [add("Div", [low, scale], "low_steps")], "zp_raw")
    zero_point = add("Clip", [add("Round", [zero_point], "zp_round"), qmin, qmax], "zp")
    steps = add("Round", [add("Div", [x, scale], "steps")], "steps_round")
    q = add("Clip", [add("Add", [steps, zero_point], "shifted"), qmin, qmax], "clipped")
    q = add("Cast", [q], "q", to=TensorProto.UINT8)
    zp_int = add("Cast", [zero_point], "zp_int", to=TensorProto.INT32)
    return nodes, q, scale, zp_int


def _static_quantize_linear(g: _Graph, dql: onnx.NodeProto, bound: Range) -> list[onnx.NodeProto]:
    """A DynamicQuantizeLinear whose input has a static bound: one QuantizeLinear with the scale and
    zero point DynamicQuantizeLinear would take from a tensor spanning exactly that bound (its
    saturation clips anything outside). Its readers get the constant scale and zero point."""
    low, high = _float32_bound(bound)
    scale = np.float32(max((float(high) - float(low)) / 255.0, TINY_SCALE))
    zero_point = np.uint8(np.clip(np.rint(-float(low) / float(scale)), 0, 255))
    x = dql.input[0]
    q_old, scale_old, zp_old = (list(dql.output) + ["", "", ""])[:3]
    scale_name = g.constant(f"{x}_static_scale", np.array(scale))
    zp_name = g.constant(f"{x}_static_zero_point", np.array(zero_point))
    for old, new in ((scale_old, scale_name), (zp_old, zp_name)):
        if not old:
            continue
        for consumer in g.consumers(old):
            consumer.input[:] = [new if value == old else value for value in consumer.input]
    return [helper.make_node("QuantizeLinear", [x, scale_name, zp_name], [q_old], name=g.name(f"{x}_static_quant"))]


# a MatMulInteger with at most this many weights, on an input with no static bound, runs as a float
# MatMul on its int8 weights scaled back: at this size the per-row quantization nodes cost more than
# the multiply (the n-gram DAN's 8x200 and 200x2 layers: 73 -> 25 us per batch-1 call)
SMALL_MATMUL = 4096


def _only_consumer(g: _Graph, value: str, op: str) -> Optional[onnx.NodeProto]:
    consumers = g.consumers(value)
    if len(consumers) != 1 or consumers[0].op_type != op or value in [o.name for o in g.graph.output]:
        return None
    return consumers[0]


def _small_float_matmuls(g: _Graph, dql: onnx.NodeProto, removed: set[int]) -> Optional[list[onnx.NodeProto]]:
    """DynamicQuantizeLinear -> small MatMulIntegers -> Cast -> Mul (by activation scale x weight
    scale), as onnxruntime's quantize_dynamic writes it, becomes one float MatMul per weight, reading
    the unquantized input: each row's product is a float dot product of that row alone. The weights
    stay int8 in the file (Cast/Sub/Mul of initializers, folded when onnxruntime loads the graph).
    None when the pattern or the size does not fit (the caller quantizes per row instead); the
    nodes it replaces are added to `removed`."""
    x = dql.input[0]
    q_old, scale_old = dql.output[0], dql.output[1]
    plan = []
    scale_users = g.consumers(scale_old)
    for matmul in g.consumers(q_old):
        inputs = list(matmul.input) + [""] * (4 - len(matmul.input))
        weight = g.array(inputs[1])
        if matmul.op_type != "MatMulInteger" or inputs[0] != q_old or weight is None or weight.ndim != 2:
            return None
        if weight.size > SMALL_MATMUL or (inputs[3] and g.array(inputs[3]) is None):
            return None
        cast = _only_consumer(g, matmul.output[0], "Cast")
        rescale = None if cast is None else _only_consumer(g, cast.output[0], "Mul")
        if rescale is None:
            return None
        scales = [user for user in scale_users if user.output[0] in rescale.input]
        if len(scales) != 1 or _only_consumer(g, scales[0].output[0], "Mul") is not rescale:
            return None
        weight_scale = next((v for v in scales[0].input if v != scale_old), "")
        if g.array(weight_scale) is None:
            return None
        plan.append((matmul, inputs, cast, rescale, scales[0], weight_scale))
    if not plan or len(scale_users) != len(plan):
        return None
    nodes = []
    for matmul, inputs, cast, rescale, scale_mul, weight_scale in plan:
        base = g.name(f"{inputs[1]}_float")
        node, value = g.node("Cast", [inputs[1]], f"{base}_cast", to=TensorProto.FLOAT)
        nodes.append(node)
        if inputs[3]:
            zero_point = g.constant(f"{base}_zp", g.array(inputs[3]).astype(np.float32))  # type: ignore[union-attr]
            node, value = g.node("Sub", [value, zero_point], f"{base}_centered")
            nodes.append(node)
        node, value = g.node("Mul", [value, weight_scale], base)
        nodes.append(node)
        nodes.append(helper.make_node("MatMul", [x, value], [rescale.output[0]], name=g.name(f"{base}_matmul")))
        removed.update(id(n) for n in (matmul, cast, rescale, scale_mul))
    return nodes


def _rewrite_dynamic_quantize_linear(g: _Graph, dql: onnx.NodeProto) -> list[onnx.NodeProto]:
    """The replacement of one DynamicQuantizeLinear and the corrections after its MatMulIntegers."""
    x = dql.input[0]
    q_old, scale_old, zp_old = (list(dql.output) + ["", "", ""])[:3]
    base = g.name(f"{x}_row_quant")
    nodes, q, scale, zp_int = _row_quantize(g, x, base)
    for consumer in g.consumers(q_old):
        if consumer.op_type != "MatMulInteger" or consumer.input[0] != q_old:
            raise ValueError(
                f"node {consumer.name!r} ({consumer.op_type}) reads the quantized activation {q_old!r} "
                "in a way this rewrite does not handle (only as MatMulInteger's A input)"
            )
        nodes.extend(_rewrite_matmul_integer(g, consumer, q, zp_int, zp_old))
    for consumer in g.consumers(scale_old):
        if consumer.op_type != "Mul":
            raise ValueError(
                f"node {consumer.name!r} ({consumer.op_type}) reads the activation scale {scale_old!r}; "
                "only Mul (by the weight scale) is handled"
            )
        consumer.input[:] = [scale if value == scale_old else value for value in consumer.input]
    return nodes


def _rewrite_matmul_integer(
    g: _Graph, matmul: onnx.NodeProto, q: str, zp_int: str, zp_old: str
) -> list[onnx.NodeProto]:
    """MatMulInteger on the row-quantized input with zero point 0, then minus zp_row * colsum(W - W_zp),
    all int32 (exact); the nodes that read its output read the corrected product instead."""
    inputs = list(matmul.input) + [""] * (4 - len(matmul.input))
    if inputs[2] not in ("", zp_old):
        raise ValueError(f"MatMulInteger {matmul.name!r}: its A zero point {inputs[2]!r} is not the activation's")
    weight = g.array(inputs[1])
    if weight is None or weight.ndim != 2:
        raise ValueError(f"MatMulInteger {matmul.name!r}: weight {inputs[1]!r} is not a 2-D initializer")
    weight_zp = g.array(inputs[3]) if inputs[3] else np.zeros((), weight.dtype)
    if weight_zp is None:
        raise ValueError(f"MatMulInteger {matmul.name!r}: weight zero point {inputs[3]!r} is not an initializer")
    column_sums = (weight.astype(np.int32) - weight_zp.astype(np.int32)).sum(0, dtype=np.int32)
    product = matmul.output[0]
    raw = g.name(f"{product}_row_raw")
    matmul.input[:] = [q, inputs[1], "", inputs[3]] if inputs[3] else [q, inputs[1]]
    matmul.output[0] = raw
    sums = g.constant(f"{product}_weight_column_sums", column_sums)
    offset_node, offset = g.node("Mul", [zp_int, sums], f"{product}_zp_offset")
    correct = helper.make_node("Sub", [raw, offset], [product], name=g.name(f"{product}_zp_correct"))
    return [offset_node, correct]


def _rewrite_dynamic_quantize_lstm(g: _Graph, node: onnx.NodeProto, bound: Optional[Range]) -> list[onnx.NodeProto]:
    """Pinned quantization ranges when the input has a static bound, else a float LSTM.

    DynamicQuantizeLSTM takes its input's range over the whole call and each step's hidden-state
    range over all rows. Two extra hidden units per direction whose state is always the largest
    and smallest value an LSTM state can take (gate biases saturated, weights 0) put both extremes
    into every row at every step, so the hidden-state range is the same whatever the batch; two
    extra input columns holding the input's bound (`green_nlp.export.value_ranges`: [-1, 1] for an
    input read from another LSTM; the embeddings' and character CNN's bound, from their weights,
    for the first layer), with the input clipped to it, do the same for the input. Their weights
    are 0, so the real units compute what they did; Y is sliced back.
    An input with no bound known from the graph runs as a float LSTM."""
    if bound is None:
        return _float_lstm(g, node)
    return _pinned_lstm(g, node, bound)


def _attributes(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _lstm_inputs(node: onnx.NodeProto) -> list[str]:
    return list(node.input) + [""] * (12 - len(node.input))


def _float_lstm(g: _Graph, node: onnx.NodeProto) -> list[onnx.NodeProto]:
    """A float LSTM with the int8 weights scaled back: (W_q - zp) * scale, transposed to ONNX's
    (directions, 4 * hidden, input) layout. The weights stay int8 in the file; Cast/Sub/Mul of
    initializers are folded into constants when onnxruntime loads the graph."""
    inputs = _lstm_inputs(node)
    nodes: list[onnx.NodeProto] = []
    weights = []
    for weight_name, scale_name, zp_name in ((inputs[1], inputs[8], inputs[9]), (inputs[2], inputs[10], inputs[11])):
        weight, scale, zero_point = g.array(weight_name), g.array(scale_name), g.array(zp_name)
        if weight is None or scale is None or zero_point is None:
            raise ValueError(f"DynamicQuantizeLSTM {node.name!r}: weights, scales and zero points must be initializers")
        values = (weight.astype(np.float32) - zero_point.astype(np.float32).reshape(-1, 1, 1)) * scale.astype(
            np.float32
        ).reshape(-1, 1, 1)
        weights.append(g.constant(f"{weight_name}_float", np.ascontiguousarray(values.transpose(0, 2, 1))))
    lstm_inputs = [inputs[0], weights[0], weights[1], *inputs[3:8]]
    while lstm_inputs and lstm_inputs[-1] == "":
        lstm_inputs.pop()
    nodes.append(
        helper.make_node("LSTM", lstm_inputs, list(node.output), name=g.name(f"{node.name}_float"), **_attributes(node))
    )
    return nodes


# pre-activation of the pinning units' gates: sigmoid and tanh are saturated (their largest value)
SATURATED = 100.0
# their initial cell state: tanh of it is saturated from the first step, and the cell only grows
PINNED_CELL = 30.0
PINS = 2  # one unit at the largest state, one at the smallest


def _float32_bound(bound: Range) -> tuple[np.float32, np.float32]:
    """`bound` widened to hold 0 (the quantizer's range always does) and rounded outward to float32."""
    low, high = np.float32(min(bound[0], 0.0)), np.float32(max(bound[1], 0.0))
    if low > min(bound[0], 0.0):
        low = np.nextafter(low, np.float32(-np.inf))
    if high < max(bound[1], 0.0):
        high = np.nextafter(high, np.float32(np.inf))
    return low, high


def _pinned_lstm(g: _Graph, node: onnx.NodeProto, bound: Range) -> list[onnx.NodeProto]:
    inputs = _lstm_inputs(node)
    attributes = _attributes(node)
    hidden = int(attributes["hidden_size"])
    if attributes.get("activations") or attributes.get("clip") or attributes.get("input_forget"):
        raise ValueError(f"DynamicQuantizeLSTM {node.name!r}: only the default activations are handled")
    weight, recurrence = g.array(inputs[1]), g.array(inputs[2])
    if weight is None or recurrence is None:
        raise ValueError(f"DynamicQuantizeLSTM {node.name!r}: weights must be initializers")
    directions = weight.shape[0]
    base = g.name(f"{node.name}_pinned")
    nodes: list[onnx.NodeProto] = []

    def add(op: str, node_inputs: Sequence[str], name: str, **attrs: Any) -> str:
        new, output = g.node(op, node_inputs, f"{base}_{name}", **attrs)
        nodes.append(new)
        return output

    def widen_gates(matrix: np.ndarray, rows: int) -> np.ndarray:
        """(dirs, K, 4H) -> (dirs, K + rows, 4 (H + PINS)), zeros in the new places (int8 0 = zero point 0)."""
        gates = matrix.reshape(directions, matrix.shape[1], 4, hidden)
        wide = np.zeros((directions, matrix.shape[1] + rows, 4, hidden + PINS), matrix.dtype)
        wide[:, : matrix.shape[1], :, :hidden] = gates
        return wide.reshape(directions, matrix.shape[1] + rows, 4 * (hidden + PINS))

    for name in (inputs[9], inputs[11]):
        zero_point = g.array(name)
        if zero_point is None or np.any(zero_point != 0):
            raise ValueError(f"DynamicQuantizeLSTM {node.name!r}: weight zero points must be 0 (symmetric int8)")
    new_weight = g.constant(f"{inputs[1]}_pinned", widen_gates(weight, PINS))
    new_recurrence = g.constant(f"{inputs[2]}_pinned", widen_gates(recurrence, PINS))
    bias = g.array(inputs[3]) if inputs[3] else np.zeros((directions, 8 * hidden), np.float32)
    if bias is None:
        raise ValueError(f"DynamicQuantizeLSTM {node.name!r}: bias must be an initializer")
    gates = bias.reshape(directions, 2, 4, hidden)  # W and R biases, gates i, o, f, c
    wide_bias = np.zeros((directions, 2, 4, hidden + PINS), np.float32)
    wide_bias[..., :hidden] = gates
    wide_bias[:, 0, :3, hidden:] = SATURATED  # input, output and forget gates open
    wide_bias[:, 0, 3, hidden:] = [SATURATED, -SATURATED]  # cell input: largest, smallest
    new_bias = g.constant(f"{inputs[3] or base}_pinned_bias", wide_bias.reshape(directions, 8 * (hidden + PINS)))

    low, high = _float32_bound(bound)
    x = add(
        "Clip",
        [inputs[0], g.constant(f"{base}_x_low", np.array(low)), g.constant(f"{base}_x_high", np.array(high))],
        "x_clipped",
    )
    x_shape = add("Shape", [x], "x_shape")
    two = g.constant(f"{base}_pins", np.array([PINS], np.int64))
    leading = add(
        "Slice",
        [x_shape, g.constant(f"{base}_0", np.array([0], np.int64)), g.constant(f"{base}_2", np.array([2], np.int64))],
        "x_leading",
    )
    pin_shape = add("Concat", [leading, two], "x_pin_shape", axis=0)
    x_pins = add("Expand", [g.constant(f"{base}_x_pin_values", np.array([high, low], np.float32)), pin_shape], "x_pins")
    wide_x = add("Concat", [x, x_pins], "x", axis=-1)

    batch = add(
        "Slice",
        [x_shape, g.constant(f"{base}_1", np.array([1], np.int64)), g.constant(f"{base}_2b", np.array([2], np.int64))],
        "batch",
    )
    dirs = g.constant(f"{base}_directions", np.array([directions], np.int64))
    state_pin_shape = add("Concat", [dirs, batch, two], "state_pin_shape", axis=0)
    states = []
    for index, (label, pins) in enumerate((("h", [1.0, -1.0]), ("c", [PINNED_CELL, -PINNED_CELL]))):
        state = inputs[5 + index]
        if not state:
            zeros_shape = add(
                "Concat",
                [dirs, batch, g.constant(f"{base}_hidden", np.array([hidden], np.int64))],
                f"{label}_zeros_shape",
                axis=0,
            )
            state = add(
                "ConstantOfShape",
                [zeros_shape],
                f"{label}_zeros",
                value=numpy_helper.from_array(np.zeros(1, np.float32)),
            )
        pin_values = add(
            "Expand",
            [g.constant(f"{base}_{label}_pin_values", np.array(pins, np.float32)), state_pin_shape],
            f"{label}_pins",
        )
        states.append(add("Concat", [state, pin_values], f"initial_{label}", axis=-1))

    wide_y = g.name(f"{base}_y")
    outputs = [wide_y] + [g.name(f"{base}_unused_{i}") for i in range(1, len(node.output))]
    lstm_inputs = [wide_x, new_weight, new_recurrence, new_bias, inputs[4], states[0], states[1], inputs[7]]
    lstm_inputs += [inputs[8], inputs[9], inputs[10], inputs[11]]
    attributes["hidden_size"] = hidden + PINS
    nodes.append(
        helper.make_node(
            "DynamicQuantizeLSTM", lstm_inputs, outputs, name=g.name(base), domain="com.microsoft", **attributes
        )
    )
    for index, output in enumerate(node.output):
        if index and output and g.consumers(output):
            raise ValueError(f"DynamicQuantizeLSTM {node.name!r}: its final states are read; only Y is handled")
    # Y: (steps, directions, batch, hidden + PINS) -> the real units
    nodes.append(
        helper.make_node(
            "Slice",
            [
                wide_y,
                g.constant(f"{base}_y_start", np.array([0], np.int64)),
                g.constant(f"{base}_y_end", np.array([hidden], np.int64)),
                g.constant(f"{base}_y_axis", np.array([3], np.int64)),
            ],
            [node.output[0]],
            name=g.name(f"{base}_y_slice"),
        )
    )
    return nodes


def _rewrite_dequantize_sum(g: _Graph, dq: onnx.NodeProto) -> Optional[list[onnx.NodeProto]]:
    """DequantizeLinear (per-tensor) read only by ReduceSums -> an int32 sum of (q - zp), scaled once.
    None when the pattern does not apply (the node is left as it is)."""
    consumers = g.consumers(dq.output[0])
    scale = g.array(dq.input[1])
    zero_point = g.array(dq.input[2]) if len(dq.input) > 2 and dq.input[2] else np.zeros((), np.int32)
    if not consumers or any(c.op_type != "ReduceSum" for c in consumers) or scale is None or zero_point is None:
        return None
    if scale.size != 1 or zero_point.size != 1:
        return None
    base = g.name(f"{dq.output[0]}_int_sum")
    cast_node, value = g.node("Cast", [dq.input[0]], f"{base}_cast", to=TensorProto.INT32)
    nodes = [cast_node]
    if int(zero_point) != 0:
        sub_node, value = g.node("Sub", [value, g.constant(f"{base}_zp", np.array(int(zero_point), np.int32))], base)
        nodes.append(sub_node)
    scale_name = g.constant(f"{base}_scale", scale.astype(np.float32).reshape(()))
    for reduce_sum in consumers:
        total = reduce_sum.output[0]
        int_total = g.name(f"{total}_int32")
        reduce_sum.input[0] = value
        reduce_sum.output[0] = int_total
        cast_back, as_float = g.node("Cast", [int_total], f"{total}_float", to=TensorProto.FLOAT)
        nodes.extend(
            [cast_back, helper.make_node("Mul", [as_float, scale_name], [total], name=g.name(f"{total}_scaled"))]
        )
    return nodes


def is_deterministic(model: onnx.ModelProto) -> bool:
    """True when `model` was written by this rewrite (or holds no per-batch quantization)."""
    if any(entry.key == MARK_KEY for entry in model.metadata_props):
        return True
    reduced = {value for node in model.graph.node if node.op_type == "ReduceSum" for value in node.input[:1]}
    return not any(
        node.op_type in ("DynamicQuantizeLinear", "DynamicQuantizeLSTM")
        or (node.op_type == "DequantizeLinear" and node.output[0] in reduced)
        for node in model.graph.node
    )


def make_deterministic(model: onnx.ModelProto) -> dict[str, int]:
    """Rewrite `model` in place (see the module docstring); returns how many nodes of each kind changed.
    Raises ValueError naming the node when a per-batch quantizer is used in a way it cannot rewrite."""
    g = _Graph(model)
    counts = {"DynamicQuantizeLinear": 0, "DynamicQuantizeLSTM": 0, "DequantizeLinear+ReduceSum": 0}
    # bounds read from the graph as it is, before any rewrite; a bounded input gets a fixed scale
    quantized = ("DynamicQuantizeLinear", "DynamicQuantizeLSTM")
    bounds = value_ranges(model, [node.input[0] for node in g.graph.node if node.op_type in quantized])
    new_nodes: list[onnx.NodeProto] = []
    # consumers are rewritten in place while their producer is visited, so walk a snapshot in order
    # and insert each replacement where its producer was (the graph stays topologically sorted:
    # every replacement reads only the producer's inputs and constants)
    removed: set[int] = set()  # nodes a replacement made redundant (visited after their producer)
    for node in list(g.graph.node):
        if id(node) in removed:
            continue
        if node.op_type == "DynamicQuantizeLinear" and node.domain in ("", "ai.onnx"):
            bound = bounds.get(node.input[0])
            small = None if bound is not None else _small_float_matmuls(g, node, removed)
            if small is not None:
                new_nodes.extend(small)
            elif bound is None:
                new_nodes.extend(_rewrite_dynamic_quantize_linear(g, node))
            else:
                new_nodes.extend(_static_quantize_linear(g, node, bound))
            counts["DynamicQuantizeLinear"] += 1
        elif node.op_type == "DynamicQuantizeLSTM" and node.domain == "com.microsoft":
            new_nodes.extend(_rewrite_dynamic_quantize_lstm(g, node, bounds.get(node.input[0])))
            counts["DynamicQuantizeLSTM"] += 1
        elif node.op_type == "DequantizeLinear":
            replacement = _rewrite_dequantize_sum(g, node)
            if replacement is None:
                new_nodes.append(node)
            else:
                new_nodes.extend(replacement)
                counts["DequantizeLinear+ReduceSum"] += 1
        else:
            new_nodes.append(node)
    # corrections after MatMulInteger / ReduceSum must follow them: sort topologically
    _set_sorted(g, new_nodes)
    _drop_unused_initializers(g)
    del model.metadata_props[:]  # re-added below with the mark
    helper.set_model_props(model, {MARK_KEY: MARK_VALUE})
    return counts


def _set_sorted(g: _Graph, nodes: list[onnx.NodeProto]) -> None:
    """Replace the graph's nodes by `nodes` in a topological order (stable: original order kept where possible)."""
    available = {value.name for value in g.graph.input} | set(g.initializers) | {""}
    pending = list(nodes)
    ordered: list[onnx.NodeProto] = []
    while pending:
        remaining = []
        for node in pending:
            if all(value in available for value in node.input):
                ordered.append(node)
                available.update(node.output)
            else:
                remaining.append(node)
        if len(remaining) == len(pending):
            missing = sorted({v for n in remaining for v in n.input if v not in available})
            raise ValueError(f"rewritten graph has inputs no node produces: {missing[:5]}")
        pending = remaining
    del g.graph.node[:]
    g.graph.node.extend(ordered)


def _drop_unused_initializers(g: _Graph) -> None:
    used = {value for node in g.graph.node for value in node.input}
    used |= {value for node in g.graph.node for attr in node.attribute if attr.g for value in _graph_inputs(attr.g)}
    kept = [init for init in g.graph.initializer if init.name in used]
    del g.graph.initializer[:]
    g.graph.initializer.extend(kept)


def _graph_inputs(subgraph: onnx.GraphProto) -> list[str]:
    """Values a subgraph (an If branch) reads from outside: all its nodes' inputs."""
    return [value for node in subgraph.node for value in node.input]


def rewrite_file(source: PathLike, target: Optional[PathLike] = None) -> dict[str, int]:
    """Rewrite the int8 graph at `source` into `target` (default: in place). Returns the counts
    (all zero when the graph was already deterministic, and then nothing is written)."""
    model = onnx.load(str(source))
    if is_deterministic(model):
        if target is not None and Path(target) != Path(source):
            onnx.save(model, str(target))
        return {}
    counts = make_deterministic(model)
    onnx.checker.check_model(model)
    onnx.save(model, str(target if target is not None else source))
    return counts


def _record_hashes(folder: Path) -> None:
    """Re-record the folder's file hashes after its graph changed, where this runtime records them."""
    from green_nlp.runtime import model_folder

    record = getattr(model_folder, "record_file_hashes", None)
    if record is not None:
        record(folder)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="exported model folders (their int8 graph is rewritten)")
    args = parser.parse_args(argv)
    from green_nlp.runtime.model_folder import INT8_FILE, read_meta

    status = 0
    for folder in args.folders:
        try:
            meta = read_meta(folder)
        except (OSError, ValueError) as error:
            print(f"{folder}: {error}", file=sys.stderr)
            status = 2
            continue
        path = folder / (meta.get("files") or {}).get("int8", INT8_FILE)
        if not path.is_file():
            print(f"{folder}: no int8 graph ({path.name})", file=sys.stderr)
            status = 2
            continue
        counts = rewrite_file(path)
        if counts:
            _record_hashes(folder)
        summary = ", ".join(f"{count} {op}" for op, count in counts.items() if count) or "already deterministic"
        print(f"{path}: {summary}")
    return status


if __name__ == "__main__":
    sys.exit(main())
