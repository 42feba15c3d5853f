"""Where exported models live and what their folder holds (no torch, no allennlp).

A model folder is what `allennlp green-export` writes: `green_model.json` plus `model.onnx`
and/or `model.int8.onnx`. A name is looked up as a folder path first, then as a folder of that
name under each directory of `GREEN_NLP_MODELS` (os.pathsep-separated), then under the
package's `green_nlp/pretrained/`
(the clone's `pretrained/`).

A folder may come from someone else, so loading one trusts nothing in it (docs/safety.md): every
file `green_model.json` names must resolve inside the folder (symlinks included), every such file
must match the sha256 recorded beside it, and a broken folder (a missing key, an empty or cut ONNX
file) is refused with one line naming the folder (`ModelFolderError`).
"""

import json
import logging
import os
from pathlib import Path
from typing import Any, Union

from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.folder_files import META_FILE, check_hashes, inside, named_files, record_hashes
from green_nlp.runtime.folder_schema import missing_key
from green_nlp.runtime.onnx_envelope import onnx_problem

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
FP32_FILE = "model.onnx"
INT8_FILE = "model.int8.onnx"
MODELS_ENV_VAR = "GREEN_NLP_MODELS"
PRECISIONS = ("auto", "fp32", "int8")


def search_dirs() -> list[Path]:
    """The directories whose sub-folders are models, in lookup order."""
    dirs = [Path(entry).expanduser() for entry in os.environ.get(MODELS_ENV_VAR, "").split(os.pathsep) if entry]
    package = Path(__file__).resolve().parent.parent
    # an installed package carries the shipped models as green_nlp/pretrained; a clone keeps them at its top
    dirs += [package / "pretrained", package.parent / "pretrained"]
    return dirs


def is_model_folder(path: Path) -> bool:
    return path.is_dir() and (path / META_FILE).is_file()


def model_folders() -> dict[str, Path]:
    """Model name -> folder for every folder the lookup finds (the first of a name wins)."""
    found: dict[str, Path] = {}
    for directory in search_dirs():
        if not directory.is_dir():
            continue
        for folder in sorted(directory.iterdir()):
            if folder.name not in found and is_model_folder(folder):
                found[folder.name] = folder
    return found


def available_models() -> dict[str, str]:
    """Model name -> one-line summary (family and card title) for every folder the lookup finds."""
    found: dict[str, str] = {}
    for name, folder in model_folders().items():
        try:
            meta = read_meta(folder)
        except ValueError as error:
            found[name] = f"unreadable: {error}"
            continue
        title = (meta.get("card") or {}).get("title") or ""
        found[name] = f"{meta.get('family')}" + (f": {title}" if title else "")
    return found


def held_precisions(folder: Path, meta: dict[str, Any]) -> list[str]:
    """The precisions whose main graph the folder holds ("fp32", "int8")."""
    files = meta.get("files") or {}
    return [
        precision
        for precision, default in (("fp32", FP32_FILE), ("int8", INT8_FILE))
        if inside(folder, f"files.{precision}", files.get(precision, default)).is_file()
    ]


def folder_state(folder: Path) -> str:
    """ "ok" when the folder's metadata and graph files would load at every precision it holds, else
    "broken: " and the reason (`green_nlp.runtime.folder_loads` also builds the model)."""
    try:
        meta = read_meta(folder)
        for precision in held_precisions(folder, meta) or ["auto"]:  # none held: model_file says which file is missing
            companion_graphs(folder, meta, model_file(folder, meta, precision))
    except (ValueError, OSError) as error:
        return f"broken: {error}"
    return "ok"


def resolve_model(name_or_path: Union[str, Path]) -> Path:
    """The model folder for a path or a model name; an unknown name lists the names available."""
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise TypeError(f"a model is a name or a folder path, got {name_or_path!r} ({type(name_or_path).__name__})")
    if not str(name_or_path).strip():  # Path("") is the current folder: never what an empty setting meant
        raise FileNotFoundError("the model name or folder is empty: give a model name (green-nlp models) or a folder")
    path = Path(name_or_path).expanduser()
    name = str(name_or_path)
    # a bare name is also a model name: the folder of that name found by the lookup, if any
    named = next((d / name for d in search_dirs() if is_model_folder(d / name)), None) if len(path.parts) == 1 else None
    if is_model_folder(path):
        if named is not None and named.resolve() != path.resolve():  # the documented order, said where it bites
            logger.warning(
                "%s: the model folder here is used, not the model of that name in %s (give that path to use it)",
                path,
                named.parent,
            )
        return path
    if named is not None:  # a folder here of the same name without a model (an output folder, say) is no model
        return named
    if path.is_dir():
        raise FileNotFoundError(
            f"{path} is a folder but holds no {META_FILE}: export a model into it with "
            "`green-nlp green-export ARCHIVE FOLDER`"
        )
    if path.is_file() and _is_archive(path):  # the model.tar.gz of `allennlp train`, given as it is
        raise FileNotFoundError(
            f"{path} is an archive (a trained model.tar.gz), which the runtime does not read: export it to a "
            f"folder first with `green-nlp green-export {path} FOLDER` (the training stack), then give FOLDER"
        )
    names = sorted(available_models())
    listing = ", ".join(names) if names else f"none (set {MODELS_ENV_VAR} to folders of exported models)"
    raise FileNotFoundError(
        f"no model {name!r}: not a folder with {META_FILE}, nor a model name. Models available: {listing}"
    )


def _is_archive(path: Path) -> bool:
    import tarfile  # here: the runtime's start does not pay for it

    try:
        return tarfile.is_tarfile(path)
    except OSError:
        return False


def _meta_json(folder: Path) -> dict[str, Any]:
    path = inside(folder, META_FILE, META_FILE)  # the metadata itself may not be a link out of the folder
    try:
        meta = json.loads(path.read_text(encoding="utf-8-sig"))  # saved with a byte-order mark by an editor
    except (OSError, ValueError) as error:
        raise ModelFolderError(f"{folder / META_FILE} is not readable JSON: {error}") from None
    except RecursionError:  # nested deeper than Python's JSON reader goes
        raise ModelFolderError(f"{folder / META_FILE} is not readable JSON: nested too deeply") from None
    if not isinstance(meta, dict):
        raise ModelFolderError(f"{folder / META_FILE} is not a JSON object ({{...}}) but {type(meta).__name__}")
    if meta.get("format_version") != FORMAT_VERSION:
        found = meta.get("format_version")
        raise ModelFolderError(
            f"{folder / META_FILE} has format_version {found!r}; this runtime reads "
            f"{FORMAT_VERSION} (re-export the model with this version of green_nlp)"
        )
    return meta


def read_meta(folder: Path) -> dict[str, Any]:
    """`green_model.json` of a model folder, checked for the format this runtime reads, the keys its
    family needs and file names that stay inside the folder (files are hashed by `model_file`)."""
    meta = _meta_json(folder)
    problem = missing_key(meta)
    if problem:
        raise ModelFolderError(f"{folder}: {META_FILE} {problem} (re-export the model)")
    for key, name in named_files(meta):
        inside(folder, key, name)
    return meta


def model_file(folder: Path, meta: dict[str, Any], precision: str = "auto") -> Path:
    """The ONNX file for `precision` ("auto" is fp32 when the folder has it, else int8), checked
    before anything reads it: it and every other file the folder names (not the other graph) match
    their recorded sha256, and it is a whole ONNX model. Returns the resolved path."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    files = meta.get("files") or {}
    fp32 = inside(folder, "files.fp32", files.get("fp32", FP32_FILE))
    int8 = inside(folder, "files.int8", files.get("int8", INT8_FILE))
    if precision == "auto":
        precision = "fp32" if fp32.is_file() else "int8"
    chosen, other = (fp32, int8) if precision == "fp32" else (int8, fp32)
    if not chosen.is_file():
        raise FileNotFoundError(f"{folder} has no {precision} model ({chosen.name})")
    checked = [(key, path) for key, path in _named_paths(folder, meta) if path != other and path.is_file()]
    if chosen not in [path for _, path in checked]:
        checked.append((f"files.{precision}", chosen))
    check_hashes(folder, meta, checked)
    problem = onnx_problem(chosen)
    if problem:
        raise ModelFolderError(f"{folder}: {chosen.name} {problem}; re-export the model or restore the file")
    return chosen


def companion_file(folder: Path, meta: dict[str, Any], key: str, files: Any, graph: Path) -> Path:
    """The file of `files` (precision -> name, found at dotted `key`) with the precision of the main
    `graph` that `model_file` returned, checked as that graph was (inside the folder, whole ONNX;
    its sha256 was checked with the folder's other files): a split parser's character encoder or lemma head."""
    main = meta.get("files") or {}
    precision = next(
        (
            p
            for p, default in (("fp32", FP32_FILE), ("int8", INT8_FILE))
            if inside(folder, f"files.{p}", main.get(p, default)) == graph
        ),
        None,
    )
    name = files.get(precision) if isinstance(files, dict) else None
    if precision is None or name is None:
        raise ModelFolderError(
            f"{folder}: {META_FILE} key {key} names no {precision or 'matching'} file for {graph.name}"
        )
    path = inside(folder, f"{key}.{precision}", name)
    if not path.is_file():
        raise ModelFolderError(
            f"{folder} has no {name} ({key}.{precision}), which {graph.name} needs; restore it or re-export the model"
        )
    problem = onnx_problem(path)
    if problem:
        raise ModelFolderError(f"{folder}: {path.name} {problem}; re-export the model or restore the file")
    return path


def companion_graphs(folder: Path, meta: dict[str, Any], graph: Path) -> dict[str, Path]:
    """The other graphs the main `graph` runs with, by part, each checked by `companion_file`: a split
    parser's character encoder ("characters", `export.character_split`) and lemma head ("lemma_head",
    `export.lemma_head_split`); none for other folders."""
    if meta.get("family") != "parser":
        return {}
    found: dict[str, Path] = {}
    chars = (meta.get("inputs") or {}).get("characters")
    encoder = chars.get("encoder") if isinstance(chars, dict) else None
    if isinstance(encoder, dict):
        key = "inputs.characters.encoder.files"
        found["characters"] = companion_file(folder, meta, key, encoder.get("files"), graph)
    head = meta.get("lemma_head")
    if isinstance(head, dict):
        found["lemma_head"] = companion_file(folder, meta, "lemma_head.files", head.get("files"), graph)
    return found


def _named_paths(folder: Path, meta: dict[str, Any]) -> list[Any]:
    return [(key, inside(folder, key, name)) for key, name in named_files(meta)]


def record_file_hashes(folder: Path) -> None:
    """(Re)write the sha256 of every file `green_model.json` names that exists in the folder, as its
    "sha256" map (file name -> hex digest), keeping the rest of the file as it is. Call it after
    changing a file of an exported folder (a rewritten graph, a pruned n-gram list)."""
    folder = Path(folder)
    path = folder / META_FILE
    text = path.read_text(encoding="utf-8")
    meta = _meta_json(folder)
    record_hashes(folder, meta, [(key, p) for key, p in _named_paths(folder, meta) if p.is_file()])
    path.write_text(json.dumps(meta, ensure_ascii=False, indent=indent_of(text)) + "\n", encoding="utf-8")


def rewrite_meta(folder: Path, meta: dict[str, Any]) -> None:
    """Write `meta` as the folder's `green_model.json` in the indentation the file already has, then
    record the hashes of the files it names (a split added graphs, or rewrote one)."""
    path = Path(folder) / META_FILE
    indent = indent_of(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(meta, ensure_ascii=False, indent=indent) + "\n", encoding="utf-8")
    record_file_hashes(folder)


def indent_of(text: str) -> int:
    """The indentation the file already uses (the exporter writes 1, the pretrained scripts 2)."""
    lines = text.splitlines()
    second = lines[1] if len(lines) > 1 else ""
    return max(1, len(second) - len(second.lstrip(" ")))
