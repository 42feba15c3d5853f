"""Where exported models live and what their folder holds (no torch, no allennlp).

A model folder is what `allennlp green-export` writes: `green_model.json` plus `model.onnx`
and/or `model.int8.onnx`. A name is looked up as a folder path first, then as a folder of that
name under each directory of `GREEN_NLP_MODELS` (os.pathsep-separated), then under the
package's `green_nlp/pretrained/`
(the clone's `pretrained/`).
"""

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Union

FORMAT_VERSION = 1
META_FILE = "green_model.json"
FP32_FILE = "model.onnx"
INT8_FILE = "model.int8.onnx"
MODELS_ENV_VAR = "GREEN_NLP_MODELS"
PRECISIONS = ("auto", "fp32", "int8")


def search_dirs() -> List[Path]:
    """The directories whose sub-folders are models, in lookup order."""
    dirs = [Path(entry).expanduser() for entry in os.environ.get(MODELS_ENV_VAR, "").split(os.pathsep) if entry]
    package = Path(__file__).resolve().parent.parent
    # an installed package carries the shipped models as green_nlp/pretrained; a clone keeps them at its top
    dirs += [package / "pretrained", package.parent / "pretrained"]
    return dirs


def is_model_folder(path: Path) -> bool:
    return path.is_dir() and (path / META_FILE).is_file()


def available_models() -> Dict[str, str]:
    """Model name -> one-line summary (family and card title) for every folder the lookup finds."""
    found: Dict[str, str] = {}
    for directory in search_dirs():
        if not directory.is_dir():
            continue
        for folder in sorted(directory.iterdir()):
            if folder.name in found or not is_model_folder(folder):
                continue
            try:
                meta = read_meta(folder)
            except ValueError as error:
                found[folder.name] = f"unreadable: {error}"
                continue
            title = (meta.get("card") or {}).get("title") or ""
            found[folder.name] = f"{meta.get('family')}" + (f": {title}" if title else "")
    return found


def resolve_model(name_or_path: Union[str, Path]) -> Path:
    """The model folder for a path or a model name; an unknown name lists the names available."""
    path = Path(name_or_path).expanduser()
    if is_model_folder(path):
        return path
    if path.is_dir():
        raise FileNotFoundError(
            f"{path} is a folder but holds no {META_FILE}: export a model into it with "
            "`allennlp green-export ARCHIVE FOLDER`"
        )
    name = str(name_or_path)
    if len(path.parts) == 1:
        for directory in search_dirs():
            if is_model_folder(directory / name):
                return directory / name
    names = sorted(available_models())
    listing = ", ".join(names) if names else f"none (set {MODELS_ENV_VAR} to folders of exported models)"
    raise FileNotFoundError(
        f"no model {name!r}: not a folder with {META_FILE}, nor a model name. Models available: {listing}"
    )


def read_meta(folder: Path) -> Dict[str, Any]:
    """`green_model.json` of a model folder, checked for the format this runtime reads."""
    try:
        meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{folder / META_FILE} is not readable JSON: {error}") from None
    if not isinstance(meta, dict) or meta.get("format_version") != FORMAT_VERSION:
        found = meta.get("format_version") if isinstance(meta, dict) else None
        raise ValueError(
            f"{folder / META_FILE} has format_version {found!r}; this runtime reads "
            f"{FORMAT_VERSION} (re-export the model with this version of green_nlp)"
        )
    return meta


def model_file(folder: Path, meta: Dict[str, Any], precision: str = "auto") -> Path:
    """The ONNX file for `precision`: "auto" is fp32 when the folder has it, else int8."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    files = meta.get("files") or {}
    fp32 = folder / files.get("fp32", FP32_FILE)
    int8 = folder / files.get("int8", INT8_FILE)
    if precision == "auto":
        precision = "fp32" if fp32.is_file() else "int8"
    chosen = fp32 if precision == "fp32" else int8
    if not chosen.is_file():
        raise FileNotFoundError(f"{folder} has no {precision} model ({chosen.name})")
    return chosen
