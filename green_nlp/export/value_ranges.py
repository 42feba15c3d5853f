"""Static bounds of an ONNX graph value, read from the graph's own initializers.

`green_nlp.export.deterministic_int8` quantizes an activation with a fixed scale when it can bound
it: a fixed scale is the same for every batch, so a row's answer cannot depend on its neighbours,
and it costs no per-row min/max nodes. The bounds come from the weights, not from data:

- an LSTM's Y (and Y_h) is o * tanh(c), inside [-1, 1];
- a Gather from an initializer table (an embedding) lies between the table's min and max;
- a 1-D Conv over embedding rows (the character CNN) is bounded per output channel and tap by
  the best and worst table row: bias_o + sum_j max_v W[o, :, j] . E[v] (the zero row counted where
  the rows are masked or padded), and Relu / max pooling keep the bound;
- reshapes, slices, gathers, Concat, Where and max/min reductions keep their inputs' hull; a
  multiplication by a 0/1 mask adds 0; allennlp's masked max adds a fill of about -3.4e38 to masked
  places and replaces an all-masked result afterwards, so the fill is left out of the bound.

The last two rules read the graph's intent (the mask fill never reaches the output) rather than
prove it, so a graph quantized with these bounds also clips the value to them as a safeguard.
"""

from typing import Optional

import numpy as np
import onnx
from onnx import helper, numpy_helper

Range = tuple[float, float]

# a constant at least this large (in magnitude) is a mask fill, not a value (allennlp's min_value_of_dtype)
MASK_FILL = 1e30
# ops whose output holds only values of their first input
KEEPS_VALUES = {
    "Transpose",
    "Reshape",
    "Identity",
    "Squeeze",
    "Unsqueeze",
    "Flatten",
    "Expand",
    "Slice",
    "Tile",
    "GatherElements",
    "ReduceMax",
    "ReduceMin",
    "MaxPool",
}
# ops that keep a vector of the last axis whole, so embedding rows stay rows (checked further for Transpose)
KEEPS_ROWS = {"Reshape", "Identity", "Unsqueeze", "Squeeze", "Flatten"}
BOOLEAN_OPS = {"Not", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "IsNaN"}


def _hull(*ranges: Optional[Range]) -> Optional[Range]:
    if any(r is None for r in ranges) or not ranges:
        return None
    return min(r[0] for r in ranges if r), max(r[1] for r in ranges if r)


class ValueRanges:
    """Bounds of the values of one graph (computed lazily, memoised); None where no rule applies."""

    def __init__(self, graph: onnx.GraphProto) -> None:
        self.producers = {output: node for node in graph.node for output in node.output if output}
        self.constants: dict[str, np.ndarray] = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
        for node in graph.node:
            if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
                self.constants[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
        self._memo: dict[str, Optional[Range]] = {}
        self._visiting: set[str] = set()

    def range(self, value: str) -> Optional[Range]:
        """(low, high) holding every element of `value`, or None when no rule bounds it."""
        if value not in self._memo:
            if value in self._visiting:
                return None
            self._visiting.add(value)
            self._memo[value] = self._compute(value)
            self._visiting.discard(value)
        return self._memo[value]

    # ------------------------------------------------------------------ rules
    def _compute(self, value: str) -> Optional[Range]:
        if value in self.constants:
            array = self.constants[value]
            if array.size == 0 or not np.issubdtype(array.dtype, np.number):
                return None
            return float(array.min()), float(array.max())
        node = self.producers.get(value)
        if node is None:
            return None
        op = node.op_type
        if op in ("LSTM", "DynamicQuantizeLSTM"):
            return (-1.0, 1.0) if value in node.output[:2] else None
        if op == "Gather":
            return self.range(node.input[0])
        if op in KEEPS_VALUES:
            return self.range(node.input[0])
        if op == "Concat":
            return _hull(*(self.range(v) for v in node.input))
        if op == "Where":
            return _hull(self.range(node.input[1]), self.range(node.input[2]))
        if op == "Relu":
            inner = self.range(node.input[0])
            return None if inner is None else (max(inner[0], 0.0), max(inner[1], 0.0))
        if op == "Mul":
            return self._mul(node)
        if op == "Add":
            return self._add(node)
        if op == "Conv":
            return self._conv(node)
        return None

    def is_mask(self, value: str) -> bool:
        """A 0/1 tensor: a boolean op's output, cast or reshaped."""
        node = self.producers.get(value)
        if node is None:
            return False
        if node.op_type in BOOLEAN_OPS:
            return True
        return (node.op_type in KEEPS_VALUES or node.op_type in ("Cast", "Gather")) and self.is_mask(node.input[0])

    def _is_fill(self, value: str) -> bool:
        """A mask times a huge negative constant (or the constant itself): the masked-max fill."""
        if value in self.constants:
            array = self.constants[value]
            return array.size > 0 and np.issubdtype(array.dtype, np.floating) and bool(np.all(array <= -MASK_FILL))
        node = self.producers.get(value)
        if node is None or node.op_type != "Mul":
            return False
        a, b = node.input[:2]
        return (self.is_mask(a) and self._is_fill(b)) or (self.is_mask(b) and self._is_fill(a))

    def _mul(self, node: onnx.NodeProto) -> Optional[Range]:
        a, b = node.input[:2]
        for mask, other in ((a, b), (b, a)):
            if self.is_mask(mask):
                return _hull(self.range(other), (0.0, 0.0))
        ra, rb = self.range(a), self.range(b)
        if ra is None or rb is None:
            return None
        products = [x * y for x in ra for y in rb]
        return min(products), max(products)

    def _add(self, node: onnx.NodeProto) -> Optional[Range]:
        a, b = node.input[:2]
        for fill, other in ((a, b), (b, a)):
            if self._is_fill(fill):
                return self.range(other)
        ra, rb = self.range(a), self.range(b)
        if ra is None or rb is None:
            return None
        return ra[0] + rb[0], ra[1] + rb[1]

    def embedding_rows(self, value: str, channel_axis: int = -1) -> Optional[np.ndarray]:
        """The rows an embedding lookup can put at each place of `value`'s `channel_axis` (the last
        one, or axis 1 after a Transpose that moved the last axis there), the zero row included
        where a mask may have zeroed a place. None when `value` is not such a lookup."""
        node = self.producers.get(value)
        if node is None:
            return None
        if node.op_type == "Transpose" and channel_axis == 1:
            perm = list(helper.get_attribute_value(node.attribute[0])) if node.attribute else []
            return self.embedding_rows(node.input[0]) if perm and perm[1] == len(perm) - 1 else None
        if channel_axis != -1:
            return None
        if node.op_type == "Gather" and node.input[0] in self.constants:
            table = self.constants[node.input[0]]
            return table.reshape(-1, table.shape[-1]) if table.ndim >= 2 else None
        if node.op_type in KEEPS_ROWS:
            return self.embedding_rows(node.input[0])
        if node.op_type == "Mul":
            a, b = node.input[:2]
            for mask, other in ((a, b), (b, a)):
                if self.is_mask(mask):
                    rows = self.embedding_rows(other)
                    return None if rows is None else np.vstack([rows, np.zeros((1, rows.shape[1]), rows.dtype)])
        return None

    def _conv(self, node: onnx.NodeProto) -> Optional[Range]:
        weight = self.constants.get(node.input[1])
        if weight is None or weight.ndim != 3:
            return None
        attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if attributes.get("group", 1) != 1:
            return None
        rows = self.embedding_rows(node.input[0], channel_axis=1)
        if rows is None or rows.shape[1] != weight.shape[1]:
            return None
        if any(attributes.get("pads", [])) or attributes.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
            rows = np.vstack([rows, np.zeros((1, rows.shape[1]), rows.dtype)])  # padding places are zero rows
        bias = self.constants.get(node.input[2]) if len(node.input) > 2 and node.input[2] else None
        bias = np.zeros(weight.shape[0], np.float64) if bias is None else bias.astype(np.float64)
        # taps[o, j, v]: what row v contributes to output channel o at kernel place j
        taps = np.einsum("ocj,vc->ojv", weight.astype(np.float64), rows.astype(np.float64))
        high = bias + taps.max(-1).sum(-1)
        low = bias + taps.min(-1).sum(-1)
        return float(low.min()), float(high.max())


def value_ranges(model: onnx.ModelProto, values: list[str]) -> dict[str, Optional[Range]]:
    """The bounds of `values` in `model` (see the module docstring)."""
    finder = ValueRanges(model.graph)
    return {value: finder.range(value) for value in values}
