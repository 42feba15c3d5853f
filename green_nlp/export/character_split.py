"""Split a parser folder's graphs at the character encoder's output: `chars[.int8].onnx` (a word's
characters -> its vector) beside the main graph (word ids, those vectors, each place's row -> the
parse).

Why: a word's character vector depends on that word alone (the CNN reads only its characters, and
its int8 rewrite quantizes nothing in it), yet the whole graph computes it again in every batch the
word appears in: 14,281 rows for the 5,656 distinct words of UD English-EWT test, about a fifth of
the graph's time. With the encoder in a graph of its own, the runtime keeps each word's vector
(`runtime.character_vectors`) and runs the encoder only on words it has not seen.

The cut is found, not named: the vectors are the data input of the `Gather` that reads the
`index_input` (each place's row, `export.parser.ParserGraph._embed`). Both halves come from the
exported graph itself (`onnx.utils.Extractor`), so they compute exactly what it computed. A folder
without a character encoder, or one already split, is left as it is.

Run it on a folder exported before this split (`python -m green_nlp.export.character_split FOLDER`);
`allennlp green-export` splits every parser it writes.
"""

import argparse
import json
from pathlib import Path
from typing import Any, Optional

VECTORS = "char_vectors"  # the cut tensor's name in both halves
ENCODER_FILES = {"fp32": "chars.onnx", "int8": "chars.int8.onnx"}
# operators that pass their first input's values on unchanged (the ids reach the embedding's Gather so)
_VALUE_KEEPING = {"Reshape", "Cast", "Squeeze", "Unsqueeze", "Flatten", "Identity"}


def _cut_tensor(graph: Any, index_input: str) -> Optional[str]:
    """The tensor the places' row index gathers from (the distinct words' vectors), or None."""
    for node in graph.node:
        if node.op_type == "Gather" and len(node.input) == 2 and node.input[1] == index_input:
            return str(node.input[0])
    return None


def renamed(model: Any, old: str, new: str) -> Any:
    """`model` with every use of tensor `old` named `new` (inputs, outputs, nodes, value infos)."""
    graph = model.graph
    for node in graph.node:
        node.input[:] = [new if name == old else name for name in node.input]
        node.output[:] = [new if name == old else name for name in node.output]
    for info in [*graph.input, *graph.output, *graph.value_info]:
        if info.name == old:
            info.name = new
    return model


def _trim_tables(encoder: Any, char_input: str, rows: int) -> None:
    """Cut the encoder's embedding tables that the character ids index to their first `rows` rows.

    The parser configs' character embedding sizes itself by AllenNLP's default namespace, the word
    vocabulary (16,002 rows in en-ewt-parser) rather than the characters' (115): the ids the runtime
    feeds never pass the character vocabulary, so the rows past it are never read (2 MB of 2.1)."""
    from onnx import numpy_helper

    tables = {t.name: t for t in encoder.graph.initializer}
    producers = {output: node for node in encoder.graph.node for output in node.output}

    def reads_ids(name: str) -> bool:
        """Is tensor `name` the character ids, reshaped or cast (values unchanged)?"""
        while name != char_input:
            node = producers.get(name)
            if node is None or node.op_type not in _VALUE_KEEPING:
                return False
            name = node.input[0]
        return True

    for node in encoder.graph.node:
        table = tables.get(node.input[0]) if node.op_type == "Gather" and reads_ids(node.input[1]) else None
        if table is not None and len(table.dims) == 2 and table.dims[0] > rows:
            trimmed = numpy_helper.from_array(numpy_helper.to_array(table)[:rows], table.name)
            table.CopyFrom(trimmed)


def split_graph(path: Path, encoder_path: Path, index_input: str, char_input: str, char_rows: int) -> None:
    """Write the character encoder of the graph at `path` to `encoder_path` and the rest back to
    `path`; the encoder's tables keep the `char_rows` rows the character ids reach. Refuses
    (ValueError) a graph whose characters reach the outputs by another way."""
    import onnx
    from onnx.utils import Extractor

    model = onnx.load(str(path))
    cut = _cut_tensor(model.graph, index_input)
    if cut is None:
        raise ValueError(f"{path.name}: no Gather reads {index_input!r}; the character encoder's output is not found")
    inputs = [i.name for i in model.graph.input]
    outputs = [o.name for o in model.graph.output]
    model = onnx.shape_inference.infer_shapes(model)  # the extractor reads the cut's type from value_info
    if cut not in {info.name for info in model.graph.value_info}:  # inference stopped before it
        model.graph.value_info.append(onnx.helper.make_tensor_value_info(cut, onnx.TensorProto.FLOAT, ["rows", "dim"]))
    extractor = Extractor(model)
    encoder = extractor.extract_model([char_input], [cut])
    main_inputs = [name if name != char_input else cut for name in inputs]
    main = extractor.extract_model(main_inputs, outputs)
    read = {name for node in main.graph.node for name in node.input}
    if char_input in read:
        raise ValueError(f"{path.name}: {char_input!r} reaches the outputs other than through the encoder")
    _trim_tables(encoder, char_input, char_rows)
    for part, target in ((encoder, encoder_path), (main, path)):
        onnx.checker.check_model(renamed(part, cut, VECTORS))
        onnx.save(part, str(target))


def split_character_encoder(folder: Path) -> bool:
    """Split every graph of an exported parser folder (see the module docstring) and record the
    encoder files and their hashes in `green_model.json`. True when it split, False when the folder
    has no character encoder to split or is split already."""
    from green_nlp.runtime.folder_files import META_FILE
    from green_nlp.runtime.model_folder import rewrite_meta

    folder = Path(folder)
    meta_path = folder / META_FILE
    meta: dict[str, Any] = json.loads(meta_path.read_text(encoding="utf-8"))
    chars = (meta.get("inputs") or {}).get("characters")
    if meta.get("family") != "parser" or not isinstance(chars, dict) or not chars.get("index_input"):
        return False
    if chars.get("encoder"):
        return False
    files: dict[str, str] = {}
    for precision, name in (meta.get("files") or {}).items():
        if (folder / name).is_file():
            encoder = folder / ENCODER_FILES[precision]
            split_graph(folder / name, encoder, chars["index_input"], chars["input"], len(chars["vocabulary"]))
            files[precision] = ENCODER_FILES[precision]
    chars["vectors_input"] = VECTORS
    chars["encoder"] = {"files": files, "output": VECTORS}
    rewrite_meta(folder, meta)
    return True


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folders", nargs="+", type=Path, help="exported parser folders")
    for folder in parser.parse_args(argv).folders:
        before = _folder_bytes(folder)
        if split_character_encoder(folder):
            print(f"{folder}: split, {before:,} -> {_folder_bytes(folder):,} bytes")
        else:
            print(f"{folder}: nothing to split")


def _folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in Path(folder).iterdir() if path.is_file())


if __name__ == "__main__":
    main()
