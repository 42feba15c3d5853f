"""The protobuf reader of ONNX graphs gives `onnx.load` + `numpy_helper.to_array`'s arrays, and
refuses what it cannot read with the file's name."""

from pathlib import Path

import numpy
import pytest

from green_nlp.runtime.onnx_reading import read_onnx_graph

onnx = pytest.importorskip("onnx", reason="the comparison reads the graphs with the onnx package too")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

PRETRAINED = Path(__file__).resolve().parents[2] / "pretrained"


def assert_same_as_onnx(path: Path) -> None:
    graph = read_onnx_graph(path)
    reference = onnx.load(str(path)).graph
    assert graph.op_types == [node.op_type for node in reference.node]
    expected = {tensor.name: numpy_helper.to_array(tensor) for tensor in reference.initializer}
    assert list(graph.initializers) == list(expected)
    constants = [
        numpy_helper.to_array(attribute.t)
        for node in reference.node
        if node.op_type == "Constant"
        for attribute in node.attribute
        if attribute.name == "value"
    ]
    for got, want in [*zip(graph.initializers.values(), expected.values()), *zip(graph.constants, constants)]:
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_array_equal(got, want)
    assert len(graph.constants) == len(constants)


@pytest.mark.parametrize(
    "path", sorted(PRETRAINED.glob("*/*.onnx")), ids=lambda path: f"{path.parent.name}/{path.name}"
)
def test_shipped_graphs_read_as_onnx_reads_them(path: Path) -> None:
    assert_same_as_onnx(path)


def write_model(path: Path, initializers: list, nodes: list = ()) -> Path:  # type: ignore[assignment]
    output = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph(
        list(nodes) or [helper.make_node("Identity", ["x"], ["y"])], "g", [], [output], initializers
    )
    path.write_bytes(helper.make_model(graph).SerializeToString())  # as is: onnx.save would move external data
    return path


def test_typed_fields_scalars_and_raw_bytes_read_alike(tmp_path: Path) -> None:
    """Values in the typed fields (not raw bytes), including negative int8 and large uint64, scalars,
    empty tensors and raw bytes."""
    initializers = [
        helper.make_tensor("f32", TensorProto.FLOAT, [2, 2], [1.5, -2.0, 0.0, 3.25]),
        helper.make_tensor("i8", TensorProto.INT8, [3], [-128, 0, 127]),
        helper.make_tensor("u8", TensorProto.UINT8, [2], [0, 255]),
        helper.make_tensor("i16", TensorProto.INT16, [2], [-30000, 7]),
        helper.make_tensor("bool", TensorProto.BOOL, [3], [True, False, True]),
        helper.make_tensor("i64", TensorProto.INT64, [], [-(2**40)]),
        helper.make_tensor("f64", TensorProto.DOUBLE, [1, 2], [0.1, -1e300]),
        helper.make_tensor("u64", TensorProto.UINT64, [2], [2**63 + 5, 1]),
        helper.make_tensor("u32", TensorProto.UINT32, [1], [4_000_000_000]),
        helper.make_tensor("empty", TensorProto.FLOAT, [0, 3], []),
        numpy_helper.from_array(numpy.arange(6, dtype=numpy.int32).reshape(3, 2), "raw_i32"),
        numpy_helper.from_array(numpy.array([-1.5, 2.0], dtype=numpy.float32), "raw_f32"),
    ]
    constant = helper.make_node("Constant", [], ["c"], value=helper.make_tensor("c", TensorProto.INT64, [1], [7]))
    path = write_model(tmp_path / "typed.onnx", initializers, [constant, helper.make_node("Identity", ["c"], ["y"])])
    assert_same_as_onnx(path)
    graph = read_onnx_graph(path)
    assert graph.initializers["i8"].tolist() == [-128, 0, 127]
    assert graph.initializers["u64"].tolist() == [2**63 + 5, 1]
    assert graph.constants[0].tolist() == [7]


def test_unreadable_files_and_tensors_are_refused_with_the_file_name(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"\xff\xff\xff\xff\x0f not protobuf")
    with pytest.raises(ValueError, match="garbage.onnx is not a readable ONNX file"):
        read_onnx_graph(garbage)

    half = tmp_path / "half.onnx"
    whole = write_model(tmp_path / "whole.onnx", [numpy_helper.from_array(numpy.ones(64, numpy.float32), "w")])
    half.write_bytes(whole.read_bytes()[:-40])
    with pytest.raises(ValueError, match="half.onnx"):
        read_onnx_graph(half)

    float16 = write_model(tmp_path / "f16.onnx", [numpy_helper.from_array(numpy.ones(2, numpy.float16), "h")])
    with pytest.raises(ValueError, match=r"f16.onnx: initializer 'h' has ONNX data type 10"):
        read_onnx_graph(float16)

    short = helper.make_tensor("s", TensorProto.FLOAT, [2, 3], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    del short.float_data[-1]
    with pytest.raises(ValueError, match=r"initializer 's' holds 5 values for its shape \(2, 3\)"):
        read_onnx_graph(write_model(tmp_path / "short.onnx", [short]))

    external = numpy_helper.from_array(numpy.ones(2, numpy.float32), "e")
    external.data_location = TensorProto.EXTERNAL
    with pytest.raises(ValueError, match="keeps its data in an external file"):
        read_onnx_graph(write_model(tmp_path / "external.onnx", [external]))

    no_tensor = helper.make_node("Constant", [], ["c"], value_float=1.0)
    with pytest.raises(ValueError, match="Constant node 0 has no tensor value"):
        read_onnx_graph(
            write_model(tmp_path / "float.onnx", [], [no_tensor, helper.make_node("Identity", ["c"], ["y"])])
        )
