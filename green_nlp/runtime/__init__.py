"""Run exported green_nlp models with onnxruntime and numpy only: no torch, no allennlp.

    from green_nlp.runtime import load
    nlp = load("path/to/exported/folder")          # or a model name, see `available_models()`
    doc = nlp.parse("The cat sat on the mat.")
    print(doc.to_conllu())

A folder comes from `allennlp green-export ARCHIVE FOLDER`. Each model family has its own class,
imported only when a folder of that family is loaded, so importing this package stays cheap.
"""

import importlib
import os
from pathlib import Path
from typing import Any, Optional, Union

from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.folder_schema import graph_mismatch
from green_nlp.runtime.length_batches import check_count
from green_nlp.runtime.model_folder import (
    available_models,
    held_precisions,
    model_file,
    read_meta,
    resolve_model,
)

# family -> "module:class", built as cls(folder, meta, session)
FAMILY_CLASSES = {
    "parser": "green_nlp.runtime.parser:ParserRuntime",
    "classifier": "green_nlp.runtime.classifier:ClassifierRuntime",
    "tagger": "green_nlp.runtime.tagger:TaggerRuntime",
}

# onnxruntime threads unless the caller asks for more: see `load`
DEFAULT_THREADS = 1
# more threads than this many per CPU are refused (`create_session`)
THREADS_PER_CPU = 4

__all__ = ["load", "resolve_model", "available_models", "create_session", "FAMILY_CLASSES"]


def create_session(path: Path, threads: Optional[int] = None) -> Any:
    """An onnxruntime CPU session; `threads` caps the intra-op threads (None: onnxruntime's default)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    if threads is not None:
        check_count("threads", threads)
        cpus = os.cpu_count() or 1
        if threads > THREADS_PER_CPU * cpus:
            # onnxruntime starts them all; thousands took minutes and hundreds of MB before a line
            raise ValueError(
                f"threads={threads} is more than {THREADS_PER_CPU} per CPU ({cpus} here): the extra threads "
                f"would only wait for a core; give at most {THREADS_PER_CPU * cpus}, and no more than {cpus} "
                "to gain speed"
            )
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    try:
        return onnxruntime.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime's own checks (InvalidProtobuf, InvalidGraph, Fail): name the file
        if not type(error).__module__.startswith("onnxruntime"):
            raise
        reason = " ".join(str(error).split())
        raise ModelFolderError(f"{path.parent}: {path.name} is not a model onnxruntime can load: {reason}") from None


def family_class(family: str) -> type:
    if family not in FAMILY_CLASSES:
        raise ValueError(f"unknown model family {family!r}; this runtime knows {sorted(FAMILY_CLASSES)}")
    module_name, class_name = FAMILY_CLASSES[family].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise ValueError(f"this version of green_nlp cannot run {family} models yet") from None
    return getattr(module, class_name)


def load(name_or_path: Union[str, Path], precision: str = "auto", threads: Optional[int] = DEFAULT_THREADS) -> Any:
    """A ready model from an exported folder or a model name.

    precision: "auto" (fp32 when the folder has `model.onnx`, else int8), "fp32" or "int8".
    threads: onnxruntime's intra-op threads (None: its default, all cores). One by default: a
    batch of these small models is too little work for a second thread to pay for its spinning
    (benchmarks/results/thread_cost.md).
    """
    folder = resolve_model(name_or_path)
    meta = read_meta(folder)
    try:
        cls = family_class(str(meta.get("family")))
    except ValueError as error:  # a folder's own "family" key: name the folder, as every folder refusal does
        raise ModelFolderError(f"{folder}: {error}") from None
    graph = model_file(folder, meta, precision)
    session = create_session(graph, threads)
    mismatch = graph_mismatch(
        meta, {node.name for node in session.get_inputs()}, {node.name for node in session.get_outputs()}
    )
    if mismatch:
        raise ModelFolderError(f"{folder}: {META_FILE} {mismatch} (re-export the model)")
    model = cls(folder, meta, session)
    model.graph_file = graph
    load_parts = getattr(model, "load_parts", None)  # a split parser's character encoder
    if load_parts is not None:
        load_parts(graph, threads)
    return model


def folder_loads(folder: Path) -> str:
    """ "ok" when the folder loads at every precision it holds, as `green-nlp parse|tag|classify`
    would load it (the checks on its labels, analyzer and n-gram index run only then; one thread,
    then dropped), else "broken: " and the reason; what `green-nlp models` lists. `load` makes
    every check `model_folder.folder_state` makes, and more."""
    try:
        for precision in held_precisions(folder, read_meta(folder)) or ["auto"]:
            load(folder, precision=precision, threads=1)
    except (ValueError, OSError) as error:
        return f"broken: {error}"
    return "ok"
