"""Cheaper operators for three parts of an exported parser graph, with the same results.

- **The label biaffine** (`Einsum "...i,oij,...j->...o"`: each word against its greedy head, every
  label): onnxruntime's Einsum took 15 % of the shipped parser's graph. Written as `x @ W'`
  reshaped to (batch, words, labels, j), then a batched MatMul with `y` as a column, it gives
  bit-identical scores (onnxruntime's Einsum reduces in the same order) in about 70 % of the time.
- **The best lemma script** (`ArgMax` over the logits that a `TopK` also sorts): the first of the
  top-k indices is the same index (ArgMax without `select_last_index` and TopK both take the lower
  index of equal scores, onnxruntime runs every node whatever outputs are fetched), so a `Gather`
  of it replaces a second pass over a few hundred logits per word (3 % of the graph).
- **The character CNN's convolution** (a 1-D `Conv` fed by a `Transpose` of (words, characters,
  channels)): onnxruntime convolves word by word, a small matrix product each. Each word's windows
  of `k` characters laid side by side in the order onnxruntime's own im2col uses (channel-major,
  then offset) make one MatMul for all the words: bit-identical vectors from one character past
  the kernel's width, as the runtime pads (`python -m benchmarks.parser.character_encoder`: 78,329
  distinct words of UD English-EWT and IMDB reviews, in sorted and shuffled batches of 1-200). With
  the runtime's calls over words of similar length, a cold pass of EWT test's feed and encoder took
  2.38 against 2.70 µs a token; one call a batch pads so widely that the MatMul is no faster there.

Together about 7 % of the shipped parser's main graph time, and about a tenth of a cold pass's feed
and encoder.
The outputs keep their names, so a folder's metadata does not change. `allennlp green-export`
applies them to every parser it writes; run `python -m green_nlp.export.graph_shortcuts FOLDER`
for a folder exported before (its main graphs and character encoders).
"""

import argparse
from pathlib import Path
from typing import Any, Optional

import numpy as np

LABEL_EQUATION = b"...i,oij,...j->...o"
# the name ending of the MatMul that replaces a convolution: it runs once per character window, so a
# count of a graph's work per word (the time budget's FLOPs) counts it per character
CONVOLUTION_MATMUL = "/windows_by_filters"


def _attribute(node: Any, name: str, default: Any) -> Any:
    from onnx import helper

    return next((helper.get_attribute_value(a) for a in node.attribute if a.name == name), default)


def _rank(model: Any, name: str) -> Optional[int]:
    infos = [*model.graph.value_info, *model.graph.input, *model.graph.output]
    for info in infos:
        if info.name == name and info.type.tensor_type.HasField("shape"):
            return len(info.type.tensor_type.shape.dim)
    return None


def _label_matmuls(node: Any, weight: np.ndarray) -> tuple[list[Any], list[Any]]:
    """(nodes, initializers) computing `node`'s Einsum for a rank-3 x and y."""
    from onnx import helper, numpy_helper

    labels, width_x, width_y = weight.shape
    prefix = node.name or node.output[0]
    names = {part: f"{prefix}/{part}" for part in ("weight", "shape", "last", "xw", "xw_4d", "y_col", "scores")}
    x, _, y = node.input
    initializers = [
        numpy_helper.from_array(  # w'[i, o * J + j] = W[o, i, j]
            np.ascontiguousarray(weight.transpose(1, 0, 2).reshape(width_x, labels * width_y)), names["weight"]
        ),
        numpy_helper.from_array(np.array([0, 0, labels, width_y], dtype=np.int64), names["shape"]),
        numpy_helper.from_array(np.array([-1], dtype=np.int64), names["last"]),
        numpy_helper.from_array(np.array([width_x, labels, width_y], dtype=np.int64), f"{prefix}/weight_shape"),
    ]
    # W itself (the runtime fetches it, `label_weight`, to score relabelled words) made back from w'
    # by moving its values, so the folder does not hold the matrix twice
    nodes = [
        helper.make_node(
            "Reshape", [names["weight"], f"{prefix}/weight_shape"], [f"{prefix}/weight_3d"], name=f"{prefix}/weight_3d"
        ),
        helper.make_node(
            "Transpose", [f"{prefix}/weight_3d"], [node.input[1]], perm=[1, 0, 2], name=f"{prefix}/weight"
        ),
    ]
    nodes += [
        helper.make_node("MatMul", [x, names["weight"]], [names["xw"]], name=names["xw"]),
        helper.make_node("Reshape", [names["xw"], names["shape"]], [names["xw_4d"]], name=names["xw_4d"]),
        helper.make_node("Unsqueeze", [y, names["last"]], [names["y_col"]], name=names["y_col"]),
        helper.make_node("MatMul", [names["xw_4d"], names["y_col"]], [names["scores"]], name=names["scores"]),
        helper.make_node("Squeeze", [names["scores"], names["last"]], list(node.output), name=f"{prefix}/labels"),
    ]
    return nodes, initializers


def _conv_matmuls(
    node: Any, source: str, weight: np.ndarray, bias: Optional[np.ndarray]
) -> tuple[list[Any], list[Any]]:
    """(nodes, initializers) computing `node`'s 1-D Conv of Transpose(`source`, [0, 2, 1]), where
    `source` is (words, width, channels): the windows as rows of (channels x offsets), then MatMul."""
    from onnx import helper, numpy_helper

    filters, channels, kernel = weight.shape
    prefix = node.name or node.output[0]
    last = np.iinfo(np.int64).max
    initializers = [  # row c * kernel + k = weight[:, c, k]: onnxruntime's im2col order, so the sums match
        numpy_helper.from_array(
            np.ascontiguousarray(weight.transpose(1, 2, 0).reshape(channels * kernel, filters)), f"{prefix}/weight"
        ),
        numpy_helper.from_array(np.array([1], dtype=np.int64), f"{prefix}/axis"),
        numpy_helper.from_array(np.array([3], dtype=np.int64), f"{prefix}/new_axis"),
        numpy_helper.from_array(np.array([0, 0, channels * kernel], dtype=np.int64), f"{prefix}/rows_shape"),
    ]
    nodes, windows = [], []
    for k in range(kernel):  # characters k .. width - kernel + k: the k-th character of every window
        bounds = [f"{prefix}/start_{k}", f"{prefix}/end_{k}"]
        end = k - (kernel - 1) if k < kernel - 1 else last
        initializers += [
            numpy_helper.from_array(np.array([k], dtype=np.int64), bounds[0]),
            numpy_helper.from_array(np.array([end], dtype=np.int64), bounds[1]),
        ]
        nodes += [
            helper.make_node(
                "Slice", [source, *bounds, f"{prefix}/axis"], [f"{prefix}/at_{k}"], name=f"{prefix}/at_{k}"
            ),
            helper.make_node(
                "Unsqueeze", [f"{prefix}/at_{k}", f"{prefix}/new_axis"], [f"{prefix}/col_{k}"], name=f"{prefix}/col_{k}"
            ),
        ]
        windows.append(f"{prefix}/col_{k}")
    products = f"{prefix}{CONVOLUTION_MATMUL}"
    nodes += [
        helper.make_node("Concat", windows, [f"{prefix}/windows"], axis=3, name=f"{prefix}/windows"),
        helper.make_node(
            "Reshape", [f"{prefix}/windows", f"{prefix}/rows_shape"], [f"{prefix}/rows"], name=f"{prefix}/rows"
        ),
        helper.make_node("MatMul", [f"{prefix}/rows", f"{prefix}/weight"], [products], name=products),
    ]
    if bias is not None:
        initializers.append(numpy_helper.from_array(bias.astype(np.float32), f"{prefix}/bias"))
        nodes.append(
            helper.make_node("Add", [products, f"{prefix}/bias"], [f"{prefix}/biased"], name=f"{prefix}/biased")
        )
        products = f"{prefix}/biased"
    nodes.append(helper.make_node("Transpose", [products], list(node.output), perm=[0, 2, 1], name=f"{prefix}/filters"))
    return nodes, initializers


def _plain_conv_source(node: Any, producers: dict[str, Any], constants: dict[str, np.ndarray]) -> Optional[str]:
    """The (words, width, channels) tensor that `node` convolves after a Transpose [0, 2, 1], where it
    is a plain 1-D Conv (one group, stride and dilation 1, no padding) with constant weights; else None."""
    weight = constants.get(node.input[1]) if len(node.input) > 1 else None
    if weight is None or weight.ndim != 3 or (len(node.input) > 2 and node.input[2] not in constants):
        return None
    plain = (
        _attribute(node, "group", 1) == 1
        and list(_attribute(node, "strides", [1])) == [1]
        and list(_attribute(node, "dilations", [1])) == [1]
        and list(_attribute(node, "pads", [0, 0])) == [0, 0]
        and _attribute(node, "auto_pad", b"NOTSET") in (b"NOTSET", b"VALID")
    )
    before = producers.get(node.input[0])
    if (
        not plain
        or before is None
        or before.op_type != "Transpose"
        or list(_attribute(before, "perm", [])) != [0, 2, 1]
    ):
        return None
    return str(before.input[0])


def _top_k_indices(model: Any, node: Any, constants: dict[str, np.ndarray]) -> Optional[str]:
    """The indices output of a sorted, largest-first TopK over the last axis of `node`'s input
    (an ArgMax over the last axis that takes the first maximum), or None."""
    if _attribute(node, "axis", 0) != -1 or _attribute(node, "keepdims", 1) != 0:
        return None
    if _attribute(node, "select_last_index", 0) != 0:
        return None
    for other in model.graph.node:
        if other.op_type != "TopK" or other.input[0] != node.input[0]:
            continue
        k = constants.get(other.input[1])
        sorted_largest = _attribute(other, "largest", 1) == 1 and _attribute(other, "sorted", 1) == 1
        if sorted_largest and _attribute(other, "axis", -1) == -1 and k is not None and int(k.reshape(-1)[0]) >= 1:
            return str(other.output[1])
    return None


def _in_order(nodes: list[Any], available: set[str]) -> list[Any]:
    """`nodes` with each after the nodes it reads from, otherwise in their order (a Gather of a
    TopK's indices replaces an ArgMax that came before the TopK)."""
    ordered: list[Any] = []
    waiting = list(nodes)
    known = set(available) | {""}  # "" is an omitted optional input
    while waiting:
        ready = next(i for i, node in enumerate(waiting) if all(name in known for name in node.input))
        node = waiting.pop(ready)
        ordered.append(node)
        known.update(node.output)
    return ordered


def shorten(model: Any) -> int:
    """Rewrite `model` (an onnx ModelProto) in place; the number of nodes replaced."""
    import onnx
    from onnx import helper, numpy_helper

    inferred = onnx.shape_inference.infer_shapes(model)
    constants = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
            constants[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    producers = {name: node for node in model.graph.node for name in node.output}
    nodes: list[Any] = []
    added: list[Any] = []
    retired: set[str] = set()  # a replaced Conv's weights
    replaced = 0
    for node in model.graph.node:
        if node.op_type == "Conv":
            source = _plain_conv_source(node, producers, constants)
            if source is not None:
                bias = constants[node.input[2]] if len(node.input) > 2 and node.input[2] else None
                more, tensors = _conv_matmuls(node, source, constants[node.input[1]], bias)
                retired.update(node.input[1:])
                nodes += more
                added += tensors
                replaced += 1
                continue
        if node.op_type == "Einsum" and _attribute(node, "equation", b"") == LABEL_EQUATION:
            weight = constants.get(node.input[1])
            if (
                weight is not None
                and weight.ndim == 3
                and _rank(inferred, node.input[0]) == 3 == _rank(inferred, node.input[2])
            ):
                more, tensors = _label_matmuls(node, weight)
                nodes += more
                added += tensors
                replaced += 1
                continue
        if node.op_type == "ArgMax":
            indices = _top_k_indices(model, node, constants)
            if indices is not None:
                first = f"{node.name or node.output[0]}/first"
                added.append(numpy_helper.from_array(np.array(0, dtype=np.int64), first))
                nodes.append(
                    helper.make_node("Gather", [indices, first], list(node.output), axis=-1, name=f"{first}_of_top_k")
                )
                replaced += 1
                continue
        nodes.append(node)
    produced = {name for node in nodes for name in node.output}
    unread = retired - {name for node in nodes for name in node.input} - {o.name for o in model.graph.output}
    # the Einsum's W is made from w' (so dropped here); a replaced Conv's weights, unless read elsewhere
    kept = [t for t in [*model.graph.initializer, *added] if t.name not in produced and t.name not in unread]
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    del model.graph.node[:]
    model.graph.node.extend(_in_order(nodes, {t.name for t in kept} | {i.name for i in model.graph.input}))
    return replaced


def shorten_file(path: Path) -> int:
    """`shorten` the graph at `path`, saved back (checked) when anything changed."""
    import onnx

    model = onnx.load(str(path))
    replaced = shorten(model)
    if replaced:
        onnx.checker.check_model(model)
        onnx.save(model, str(path))
    return replaced


def shorten_folder(folder: Path) -> int:
    """`shorten_file` every graph of an exported parser folder (main graphs, character encoders) and
    record the new hashes."""
    import json

    from green_nlp.runtime.folder_files import META_FILE
    from green_nlp.runtime.model_folder import record_file_hashes

    meta = json.loads((Path(folder) / META_FILE).read_text(encoding="utf-8"))
    if meta.get("family") != "parser":
        return 0
    encoders = ((meta.get("inputs") or {}).get("characters") or {}).get("encoder") or {}
    names = [*(meta.get("files") or {}).values(), *(encoders.get("files") or {}).values()]
    replaced = sum(shorten_file(Path(folder) / name) for name in names if (Path(folder) / name).is_file())
    if replaced:
        record_file_hashes(Path(folder))
    return replaced


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folders", nargs="+", type=Path, help="exported parser folders")
    for folder in parser.parse_args(argv).folders:
        print(f"{folder}: {shorten_folder(folder)} nodes replaced")


if __name__ == "__main__":
    main()
