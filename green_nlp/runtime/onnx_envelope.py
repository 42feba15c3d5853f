"""A cheap structural check of an ONNX file, without onnx or onnxruntime: is it a whole ModelProto?

onnxruntime reports an empty, truncated or foreign file as a protobuf parse failure that names
neither the folder nor what is wrong, and `green-nlp models` should not need onnxruntime (or a
second of its start-up) to tell a broken folder. A ModelProto is a sequence of top-level
protobuf fields; walking them (key, then a varint or a length to skip) costs a few reads, finds a
file cut anywhere before its last field, and finds most files that are not ONNX at all. A graph
damaged inside is left to the recorded sha256 and to onnxruntime's own checks.
"""

from pathlib import Path
from typing import BinaryIO, Optional

# ModelProto's fields (onnx.proto) -> protobuf wire type: 0 varint, 2 length-delimited
_FIELDS: dict[int, int] = {1: 0, 2: 2, 3: 2, 4: 2, 5: 0, 6: 2, 7: 2, 8: 2, 14: 2, 20: 2, 25: 2, 26: 2}
_IR_VERSION, _GRAPH, _OPSET_IMPORT = 1, 7, 8


def _varint(handle: BinaryIO) -> Optional[int]:
    """The next varint, or None at the end of the file or after 10 bytes (not a varint)."""
    value = 0
    for shift in range(0, 70, 7):
        byte = handle.read(1)
        if not byte:
            return None
        value |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            return value
    return None


def onnx_problem(path: Path) -> str:
    """Why `path` is not a complete ONNX model ("" when its top level is whole)."""
    size = path.stat().st_size
    if size == 0:
        return "is empty (0 bytes)"
    seen = set()
    with open(path, "rb") as handle:
        while handle.tell() < size:
            at = handle.tell()
            key = _varint(handle)
            if key is None:
                return f"is truncated or not ONNX (no field key at byte {at})"
            field, wire = key >> 3, key & 7
            if _FIELDS.get(field) != wire:
                return f"is not an ONNX model (unexpected protobuf field {field}, wire type {wire}, at byte {at})"
            value = _varint(handle)
            if value is None:
                return f"is truncated (field {field} at byte {at} has no value)"
            if wire == 2:
                remain = size - handle.tell()
                if value > remain:
                    return f"is truncated (field {field} at byte {at} needs {value} bytes, {remain} remain)"
                handle.seek(value, 1)
            seen.add(field)
    for field, name in ((_IR_VERSION, "ir_version"), (_GRAPH, "graph"), (_OPSET_IMPORT, "opset_import")):
        if field not in seen:
            return f"is truncated or not ONNX (no {name})"
    return ""
