"""The exported DAN's int8 graph read back as plain arrays, for the numba engine (`dan_numba`).

Why read the graph instead of a second weight file: the graph is what the onnxruntime engine runs
and what the folder's sha256 and card vouch for, so the numba engine computes from the same bytes.
The graph is read by `onnx_reading` (protobuf, without the slow-to-import `onnx` package) and accepted only in the
one layout `green_nlp.export.deterministic_int8` writes for the DAN, node for node: the int8 table
summed as int32 and scaled once, divided by the n-gram count (at least 1), then two float layers
on int8 weights scaled back. Any other graph (an fp32 export, an older per-call int8 graph, a
changed exporter) is refused with the reason, and the onnxruntime engine stays the way to run it.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy

from green_nlp.runtime.onnx_reading import read_onnx_graph

# the op types of the deterministic int8 DAN graph, in the exporter's node order
DAN_INT8_LAYOUT = [
    "Constant",
    "Constant",
    "Constant",
    "Gather",
    "Equal",
    "Cast",
    "Sub",
    "Not",
    "ReduceSum",
    "Cast",
    "ReduceSum",
    "Clip",
    "Cast",
    "Cast",
    "Sub",
    "Mul",
    "Cast",
    "Sub",
    "Mul",
    "Cast",
    "Mul",
    "Div",
    "MatMul",
    "Add",
    "Relu",
    "MatMul",
    "Add",
    "Softmax",
]
_TABLE = "table_quantized"
_SUM_ZERO, _SUM_SCALE = "/Gather_output_0_int_sum_zp", "/Gather_output_0_int_sum_scale"


class GraphLayoutError(ValueError):
    """The graph is not the deterministic int8 DAN layout the numba engine computes."""


@dataclass(frozen=True)
class DanWeights:
    """`table` (uint8, rows x d) and its zero point and scale; `hidden` (d x h) and `output` (h x labels)
    already scaled back to float32 as the graph does it; their biases."""

    table: numpy.ndarray
    table_zero: int
    table_scale: numpy.float32
    hidden: numpy.ndarray
    hidden_bias: numpy.ndarray
    output: numpy.ndarray
    output_bias: numpy.ndarray


def read_dan_weights(path: Path) -> DanWeights:
    """The weights of the DAN graph at `path`; `GraphLayoutError` says why a graph is not one."""
    graph = read_onnx_graph(path)
    layout = graph.op_types
    if layout != DAN_INT8_LAYOUT:
        raise GraphLayoutError(
            f"{path.name} is not the deterministic int8 DAN graph (its nodes are {' '.join(layout[:8])} ...); "
            "the numba engine runs only that graph: use the onnxruntime engine"
        )
    arrays: dict[str, Any] = graph.initializers
    constants = graph.constants
    if [value.ravel().tolist() for value in constants] != [
        [1],
        [0],
        [1],
    ]:  # sum over axis 1, padding id 0, count clipped at 1
        raise GraphLayoutError(f"{path.name}: the DAN graph's constants are {constants}, not [1, 0, 1]")

    def scaled_back(name: str) -> numpy.ndarray:
        # the graph's own float32 steps: Cast, Sub zero point, Mul scale (onnxruntime folds them alike)
        quantized = arrays[f"{name}.weight_Transposed_quantized"].astype(numpy.float32)
        zero = numpy.float32(arrays[f"{name}.weight_Transposed_quantized_float_zp"])
        return numpy.ascontiguousarray((quantized - zero) * numpy.float32(arrays[f"{name}.weight_Transposed_scale"]))

    table = numpy.ascontiguousarray(arrays[_TABLE])
    zero = int(arrays[_SUM_ZERO])
    if table.dtype != numpy.uint8 or table.ndim != 2:
        raise GraphLayoutError(f"{path.name}: the n-gram table is {table.dtype} {table.shape}, not a uint8 matrix")
    if (table[0].astype(numpy.int64) != zero).any():
        # padding (id 0) must add nothing, as the graph's batches rely on
        raise GraphLayoutError(f"{path.name}: the padding row of the n-gram table is not the zero point {zero}")
    weights = DanWeights(
        table,
        zero,
        numpy.float32(arrays[_SUM_SCALE]),
        scaled_back("hidden"),
        numpy.ascontiguousarray(arrays["hidden.bias"], dtype=numpy.float32),
        scaled_back("output"),
        numpy.ascontiguousarray(arrays["output.bias"], dtype=numpy.float32),
    )
    if weights.hidden.shape != (table.shape[1], len(weights.hidden_bias)) or weights.output.shape != (
        len(weights.hidden_bias),
        len(weights.output_bias),
    ):
        raise GraphLayoutError(f"{path.name}: the DAN graph's layer shapes do not chain")
    return weights
