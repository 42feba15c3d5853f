"""An ONNX file's node op types, Constant tensors and initializers as numpy arrays, read without
the `onnx` package.

Why not `onnx.load`: importing `onnx` imports and sets up ml_dtypes, which took about half of the
numba engine's start on a slow core (its first line came 1.39-1.51 s after the start with `onnx`,
0.70-0.87 s without, in the time budget's runs on one AMD EPYC). protobuf (a dependency of
onnxruntime) parses the file instead, from a descriptor of just the ONNX messages and fields read
here; their numbers are onnx.proto's, and protobuf skips every other field. A test reads the
shipped graphs both ways and compares every array.
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

_PACKAGE = "green_nlp.onnx_subset"
_T = descriptor_pb2.FieldDescriptorProto
# message -> (field name, number in onnx.proto, type, repeated, message type)
_MESSAGES: dict[str, list[tuple[str, int, int, bool, str]]] = {
    "ModelProto": [("graph", 7, _T.TYPE_MESSAGE, False, "GraphProto")],
    "GraphProto": [
        ("node", 1, _T.TYPE_MESSAGE, True, "NodeProto"),
        ("initializer", 5, _T.TYPE_MESSAGE, True, "TensorProto"),
    ],
    "NodeProto": [
        ("op_type", 4, _T.TYPE_STRING, False, ""),
        ("attribute", 5, _T.TYPE_MESSAGE, True, "AttributeProto"),
    ],
    "AttributeProto": [("name", 1, _T.TYPE_STRING, False, ""), ("t", 5, _T.TYPE_MESSAGE, False, "TensorProto")],
    "TensorProto": [
        ("dims", 1, _T.TYPE_INT64, True, ""),
        ("data_type", 2, _T.TYPE_INT32, False, ""),
        ("float_data", 4, _T.TYPE_FLOAT, True, ""),
        ("int32_data", 5, _T.TYPE_INT32, True, ""),
        ("int64_data", 7, _T.TYPE_INT64, True, ""),
        ("name", 8, _T.TYPE_STRING, False, ""),
        ("raw_data", 9, _T.TYPE_BYTES, False, ""),
        ("double_data", 10, _T.TYPE_DOUBLE, True, ""),
        ("uint64_data", 11, _T.TYPE_UINT64, True, ""),
        ("data_location", 14, _T.TYPE_INT32, False, ""),
    ],
}
# TensorProto.DataType -> numpy type and the typed field that holds the values without raw_data
_DATA_TYPES: dict[int, tuple[type, str]] = {
    1: (numpy.float32, "float_data"),
    2: (numpy.uint8, "int32_data"),
    3: (numpy.int8, "int32_data"),
    4: (numpy.uint16, "int32_data"),
    5: (numpy.int16, "int32_data"),
    6: (numpy.int32, "int32_data"),
    7: (numpy.int64, "int64_data"),
    9: (numpy.bool_, "int32_data"),
    11: (numpy.float64, "double_data"),
    12: (numpy.uint32, "uint64_data"),
    13: (numpy.uint64, "uint64_data"),
}
_EXTERNAL = 1  # TensorProto.DataLocation.EXTERNAL


@dataclass(frozen=True)
class OnnxGraph:
    """`op_types`: every node's, in the file's order; `constants`: each Constant node's `value`
    tensor, in node order; `initializers`: by name."""

    op_types: list[str]
    constants: list[numpy.ndarray]
    initializers: dict[str, numpy.ndarray]


@cache
def _model_class() -> Any:
    """The ModelProto class of the subset, built once in a pool of its own (beside onnx's, if loaded)."""
    file = descriptor_pb2.FileDescriptorProto(name="green_nlp_onnx_subset.proto", package=_PACKAGE, syntax="proto2")
    for name, fields in _MESSAGES.items():
        message = file.message_type.add(name=name)
        for field, number, kind, repeated, type_name in fields:
            added = message.field.add(
                name=field, number=number, type=kind, label=_T.LABEL_REPEATED if repeated else _T.LABEL_OPTIONAL
            )
            if type_name:
                added.type_name = f".{_PACKAGE}.{type_name}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.ModelProto"))


def tensor_array(tensor: Any, where: str) -> numpy.ndarray:
    """A TensorProto's values in its shape, as `onnx.numpy_helper.to_array` gives them for these types."""
    if tensor.data_location == _EXTERNAL:
        raise ValueError(f"{where} keeps its data in an external file; this reader takes graphs with their data inside")
    if tensor.data_type not in _DATA_TYPES:
        raise ValueError(f"{where} has ONNX data type {tensor.data_type}, which this reader does not take")
    dtype, typed_field = _DATA_TYPES[tensor.data_type]
    shape = tuple(tensor.dims)
    if tensor.raw_data:  # little-endian bytes, as ONNX stores them
        values = numpy.frombuffer(tensor.raw_data, dtype=numpy.dtype(dtype).newbyteorder("<"))
    else:
        values = numpy.array(getattr(tensor, typed_field), dtype=numpy.int64 if typed_field == "int32_data" else None)
    if values.size != int(numpy.prod(shape, dtype=numpy.int64)):
        raise ValueError(f"{where} holds {values.size} values for its shape {shape}")
    return values.astype(dtype).reshape(shape)


def read_onnx_graph(path: Path) -> OnnxGraph:
    """The graph of the ONNX file at `path`; ValueError names the file and what it cannot read."""
    model = _model_class()()
    try:
        model.ParseFromString(Path(path).read_bytes())
    except DecodeError as error:
        raise ValueError(f"{Path(path).name} is not a readable ONNX file ({error})") from None
    graph = model.graph
    constants = []
    for position, node in enumerate(graph.node):
        if node.op_type == "Constant":
            values = [
                attribute.t for attribute in node.attribute if attribute.name == "value" and attribute.HasField("t")
            ]
            if not values:
                raise ValueError(f"{Path(path).name}: Constant node {position} has no tensor value")
            constants.append(tensor_array(values[0], f"{Path(path).name}: Constant node {position}"))
    return OnnxGraph(
        [node.op_type for node in graph.node],
        constants,
        {
            tensor.name: tensor_array(tensor, f"{Path(path).name}: initializer {tensor.name!r}")
            for tensor in graph.initializer
        },
    )
