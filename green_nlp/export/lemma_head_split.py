"""Split a parser folder's lemma head into a graph of its own: `lemma_head[.int8].onnx` (the encoder's
states of some words -> their best edit scripts) beside the main graph, which then gives those
states (`lemma_states`) instead of the scripts.

Why: the runtime takes a word's lemma from the folder's (form, UPOS) dictionary first
(`runtime.lemma_lexicon`), and only the other words need the head's scripts: about one word in
eleven on UD English-EWT test. Yet the head is the graph's widest matrix product (hundreds of
scripts a word) and its top-k, computed for every word. Run apart, it reads only the words the
dictionary lacks.

Each word's scripts are the same bits either way: the head reads one word's state alone, through a
matrix product (int8: integer, on states quantized with a fixed scale, `deterministic_int8`; fp32:
onnxruntime computes each row alike however many rows it is given, which
`tests/export/lemma_head_split_test.py` checks for 1 to all rows), then per-element operators and a
top-k over that word's row. A folder without a lemma dictionary
(every word would need the head), without a lemma head, or split already is left as it is.

Run it on an exported folder (`python -m green_nlp.export.lemma_head_split FOLDER`); `allennlp
green-export` splits every parser it writes.
"""

import argparse
import json
from pathlib import Path
from typing import Any, Optional

from green_nlp.runtime.folder_schema import LEMMA_HEAD_OUTPUTS

STATES = "lemma_states"  # the cut tensor's name in both graphs
HEAD_FILES = {"fp32": "lemma_head.onnx", "int8": "lemma_head.int8.onnx"}


def _head_cut(graph: Any, head_outputs: set[str]) -> str:
    """The one tensor through which the graph's inputs reach the head's outputs: the head's nodes
    are those only the head's outputs need, and the tensor they read from the other nodes (or from
    a graph input) that depends on the graph's inputs. ValueError where there is not exactly one."""
    producer = {output: node for node in graph.node for output in node.output}
    constant = {init.name for init in graph.initializer}

    def ancestors(names: set[str]) -> set[int]:
        seen: set[int] = set()
        stack = [producer[name] for name in names if name in producer]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.extend(producer[name] for name in node.input if name in producer)
        return seen

    others = ancestors({o.name for o in graph.output if o.name not in head_outputs})
    head = ancestors(head_outputs) - others
    for node in graph.node:  # a node computing from constants alone is a constant itself
        if id(node) not in head and all(name in constant or not name for name in node.input):
            constant.update(node.output)
    cuts = {
        name
        for node in graph.node
        if id(node) in head
        for name in node.input
        if name and name not in constant and (name not in producer or id(producer[name]) not in head)
    }
    if len(cuts) != 1:
        raise ValueError(f"the lemma head reads {sorted(cuts) or 'nothing'} from the rest of the graph, not one tensor")
    return cuts.pop()


def split_graph(path: Path, head_path: Path, head_outputs: list[str]) -> None:
    """Write the lemma head of the graph at `path` (the nodes only `head_outputs` need) to `head_path`
    and the rest, giving the head's input as output `STATES`, back to `path`."""
    import onnx
    from onnx.utils import Extractor

    from green_nlp.export.character_split import renamed

    model = onnx.load(str(path))
    outputs = [o.name for o in model.graph.output]
    missing = [name for name in head_outputs if name not in outputs]
    if missing:
        raise ValueError(f"{path.name}: no output {missing}")
    cut = _head_cut(model.graph, set(head_outputs))
    inputs = [i.name for i in model.graph.input]
    model = onnx.shape_inference.infer_shapes(model)  # the extractor reads the cut's type from value_info
    if cut not in {info.name for info in model.graph.value_info}:
        raise ValueError(f"{path.name}: the type of {cut!r} is not known; the lemma head cannot be cut there")
    extractor = Extractor(model)
    head = extractor.extract_model([cut], head_outputs)
    main = extractor.extract_model(inputs, [name for name in outputs if name not in head_outputs] + [cut])
    for part, target in ((head, head_path), (main, path)):
        onnx.checker.check_model(renamed(part, cut, STATES))
        onnx.save(part, str(target))


def split_lemma_head(folder: Path) -> bool:
    """Split every graph of an exported parser folder (see the module docstring) and record the head's
    files in `green_model.json` (`lemma_head`) with their hashes. True when it split."""
    from green_nlp.runtime.folder_files import META_FILE
    from green_nlp.runtime.model_folder import rewrite_meta

    folder = Path(folder)
    meta_path = folder / META_FILE
    meta: dict[str, Any] = json.loads(meta_path.read_text(encoding="utf-8"))
    outputs = meta.get("outputs") or {}
    if meta.get("family") != "parser" or meta.get("lemma_head") or not meta.get("lemma_lexicon"):
        return False
    if not outputs.get("lemma_rules"):
        return False
    head_outputs = [outputs[key] for key in LEMMA_HEAD_OUTPUTS if outputs.get(key)]
    files: dict[str, str] = {}
    for precision, name in (meta.get("files") or {}).items():
        if (folder / name).is_file():
            split_graph(folder / name, folder / HEAD_FILES[precision], head_outputs)
            files[precision] = HEAD_FILES[precision]
    meta["lemma_head"] = {"files": files, "states": STATES}
    rewrite_meta(folder, meta)
    return True


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folders", nargs="+", type=Path, help="exported parser folders")
    for folder in parser.parse_args(argv).folders:
        print(f"{folder}: {'split' if split_lemma_head(folder) else 'nothing to split'}")


if __name__ == "__main__":
    main()
