"""Archive -> runtime folder: the steps every model family shares.

A family module (`green_nlp.export.<module>`) writes `model.onnx` and returns its JSON metadata;
this module loads the archive, picks the family, quantizes the graph to int8 and writes
`green_model.json`. The folder it writes holds only ONNX (protobuf) and JSON files, never a
pickle, so loading it runs no code from the archive.
"""

import hashlib
import importlib
import json
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, Union

from allennlp.common.checks import ConfigurationError
from allennlp.models import Model
from allennlp.models.archival import load_archive

from green_nlp.export.allennlp_internals import registered_model_name
from green_nlp.runtime.folder_schema import LENGTHS_KEY, exported_lengths
from green_nlp.runtime.model_folder import FORMAT_VERSION, FP32_FILE, INT8_FILE, META_FILE, record_file_hashes

logger = logging.getLogger(__name__)

# family -> module under green_nlp.export that writes model.onnx for it
FAMILY_MODULES = {"parser": "parser", "classifier": "dan", "tagger": "tagger"}

PathLike = Union[str, Path]


def model_family(model: Model) -> str:
    """The export family of a loaded model, or an error naming its type."""
    from green_nlp.models.biaffine_parser import BiaffineDependencyParser
    from green_nlp.models.ldnet_tagger import LdNetTagger
    from green_nlp.models.ngram_dan import NgramDan

    for cls, family in ((BiaffineDependencyParser, "parser"), (NgramDan, "classifier"), (LdNetTagger, "tagger")):
        if isinstance(model, cls):
            return family
    raise ConfigurationError(
        f"cannot export a model of type {_model_type(model)}: green-export handles "
        "green_biaffine_parser, green_ngram_dan and green_ldnet_tagger"
    )


def _model_type(model: Model) -> str:
    """The name the model is registered under (its config `type`), else its class name."""
    name = registered_model_name(model)
    return repr(name) if name is not None else type(model).__name__


def family_module(family: str, model: Model) -> Any:
    """`green_nlp.export.<module>` for `family`; a family not written yet is a clear error."""
    name = f"green_nlp.export.{FAMILY_MODULES[family]}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        raise ConfigurationError(f"exporting {_model_type(model)} is not supported yet") from None


def sha256_of(path: PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_model_card(path: PathLike) -> dict[str, Any]:
    """The parts of a model card (`experiments/model_cards/*.md`) a user of the exported model needs:
    title, license, data lines and the metrics table (test figures), as strings from the card."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ConfigurationError(
            f"--card {path} is not UTF-8 text ({error.reason} at byte {error.start}): "
            "give the model card's Markdown file"
        ) from None
    except IsADirectoryError:
        raise ConfigurationError(f"--card {path} is a folder: give the model card's Markdown file") from None
    card: dict[str, Any] = {"file": Path(path).name, "title": None, "license": None, "data": [], "metrics": {}}
    section = None
    for line in text.splitlines():
        if line.startswith("# ") and card["title"] is None:
            card["title"] = line[2:].strip()
        elif line.startswith("## "):
            section = line[3:].strip().lower()
        elif section == "data" and line.startswith("- "):
            item = line[2:].strip()
            license_match = re.match(r"license:\s*(.+)", item, flags=re.IGNORECASE)
            if license_match:
                card["license"] = license_match.group(1).strip()
            else:
                card["data"].append(item)
        elif section == "metrics" and line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if len(cells) == 2 and cells[0] not in ("metric", "") and not set(cells[0]) <= set("-: "):
                card["metrics"][cells[0]] = cells[1]
    return card


def check_onnx(path: PathLike) -> None:
    import onnx

    onnx.checker.check_model(str(path))


DEFAULT_INT8_OP_TYPES = ["MatMul", "Gemm", "LSTM"]


def quantize_int8(
    fp32_path: PathLike, int8_path: PathLike, op_types: Sequence[str] = tuple(DEFAULT_INT8_OP_TYPES)
) -> None:
    """onnxruntime's dynamic quantization of the given operators' weights. By default the LSTM and
    matrix-multiply weights, the layers `green_nlp.nn.quantization.quantize_for_cpu` quantizes in
    torch (convolutions stay float: onnxruntime's CPU ConvInteger takes no int8 weights); a family
    module may name its own (`INT8_OP_TYPES`: the DAN quantizes its n-gram table, `Gather`).
    The graph is then rewritten by `deterministic_int8`, so that activation scales are per row,
    not per call: a text's answer does not depend on the batch it is in or the thread count."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from green_nlp.export.deterministic_int8 import rewrite_file

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # its advice to run shape pre-processing concerns static quantization
    try:
        quantize_dynamic(
            str(fp32_path), str(int8_path), weight_type=QuantType.QInt8, op_types_to_quantize=list(op_types)
        )
    finally:
        root.setLevel(level)
    rewrite_file(int8_path)


def load_for_export(archive_path: PathLike) -> tuple[Model, Any]:
    """(model on CPU in eval mode, archive config) from a `model.tar.gz`, loaded safely."""
    import green_nlp

    green_nlp.register()  # the archive's registered names, and safe extraction
    archive = load_archive(str(archive_path), cuda_device=-1)
    return archive.model.eval(), archive.config


def check_tokenizer_language(language: str, family: str) -> None:
    """Refuse a `--language` the family does not use, or one spaCy has no tokenizer for (here, not
    at the first line a user parses)."""
    if family not in ("parser", "tagger"):
        raise ConfigurationError(f"a {family} reads no spaCy tokens: --language is for parsers and taggers")
    import spacy

    try:
        spacy.blank(language)
    except Exception as error:  # spaCy raises its own ImportError/KeyError variants
        raise ConfigurationError(
            f"--language {language!r}: spaCy has no tokenizer rules for it ({str(error).rstrip('. ')}); "
            "spaCy's multi-language tokenizer, --language xx, takes any language written with spaces between words"
        ) from None


def check_output_folder(output_dir: Path, family: str, overwrite: bool = False) -> list[Path]:
    """Refuse a folder that holds anything but an exported model of the same family (its files would
    stay beside the new ones: a tagger's folder became a parser's with the tagger's files in it), and
    such a model too unless `overwrite`: re-exporting over it replaced its graphs and metadata
    silently and left its card, lemma dictionary and tokenizer rules describing the model that was
    there (a shipped folder's among them). Returns the old model's files, which `export_archive`
    removes before writing; a folder holding files its model does not name is refused even then."""
    if not output_dir.is_dir() or not any(output_dir.iterdir()):
        return []
    meta_path = output_dir / META_FILE
    try:
        held = json.loads(meta_path.read_text(encoding="utf-8")).get("family") if meta_path.is_file() else None
    except (OSError, ValueError, AttributeError):
        held = None
    if held != family:
        what = f"an exported {held} model" if held else "other files"
        raise ConfigurationError(
            f"{output_dir} holds {what}, not an exported {family} model: give a new or empty folder to export into"
        )
    if not overwrite:
        raise ConfigurationError(
            f"{output_dir} already holds an exported {family} model: give a new or empty folder, or pass "
            "--overwrite to replace it (its files are removed first)"
        )
    old = model_files(output_dir)
    others = sorted(path.name for path in output_dir.iterdir() if path not in old)
    if others:
        raise ConfigurationError(
            f"{output_dir} holds files its exported model does not name ({', '.join(others[:5])}"
            f"{', ...' if len(others) > 5 else ''}): move them elsewhere, or give a new or empty folder"
        )
    return sorted(old)


def model_files(folder: Path) -> set[Path]:
    """The files of the exported model in `folder`: its metadata and every existing file the metadata
    names or records a hash of (a name it cannot resolve inside the folder is not counted)."""
    from green_nlp.runtime.errors import ModelFolderError
    from green_nlp.runtime.folder_files import HASHES_KEY, inside, named_files

    meta_path = folder / META_FILE
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    hashed = meta.get(HASHES_KEY) if isinstance(meta.get(HASHES_KEY), dict) else {}
    found = {meta_path}
    for key, name in [*named_files(meta), *((f"{HASHES_KEY}.{name}", name) for name in hashed)]:
        try:
            path = inside(folder, key, name)
        except ModelFolderError:
            continue
        if path.is_file() and path.parent == folder.resolve():
            found.add(folder / path.name)
    return found


def export_archive(
    archive_path: PathLike,
    output_dir: PathLike,
    card: Optional[PathLike] = None,
    *,
    split_graphs: bool = True,
    overwrite: bool = False,
    language: Optional[str] = None,
) -> Path:
    """Write a runtime folder for an AllenNLP archive: `model.onnx`, `model.int8.onnx` and
    `green_model.json`; a parser's graphs then get cheaper equivalent operators
    (`export.graph_shortcuts`) and its character encoder a graph of its own
    (`export.character_split`). `split_graphs=False` leaves the graphs as traced and quantized, the
    layout of folders exported before. `overwrite`: a folder holding an exported model of the same
    family has that model's files removed first (else it is refused, `check_output_folder`).
    `language`: the spaCy tokenizer language the runtime splits raw text with (a parser's or tagger's;
    default `en`), checked here: a model of another treebank tokenized as English read whole clauses
    of Chinese as one word. Returns the folder."""
    archive_path, output_dir = Path(archive_path), Path(output_dir)
    if not archive_path.is_file():
        raise ConfigurationError(f"archive {archive_path} does not exist")
    if output_dir.exists() and not output_dir.is_dir():
        raise ConfigurationError(f"{output_dir} is a file: give a folder to export into (a new or empty one)")
    # read before anything is written: a missing card stopped the export after its graphs, and the
    # half-written folder then refused the corrected command as "holds other files"
    card_meta = read_model_card(card) if card is not None else None
    model, config = load_for_export(archive_path)
    family = model_family(model)
    module = family_module(family, model)
    if language is not None:
        check_tokenizer_language(language, family)
    for old_file in check_output_folder(output_dir, family, overwrite):
        old_file.unlink()
    output_dir.mkdir(parents=True, exist_ok=True)
    family_meta = module.export(model, config, output_dir)
    if language is not None:
        family_meta["tokenizer"] = {**family_meta["tokenizer"], "language": language}
    check_onnx(output_dir / FP32_FILE)
    quantize_int8(
        output_dir / FP32_FILE, output_dir / INT8_FILE, getattr(module, "INT8_OP_TYPES", DEFAULT_INT8_OP_TYPES)
    )
    check_onnx(output_dir / INT8_FILE)
    meta = {
        "format_version": FORMAT_VERSION,
        "family": family,
        "source_archive_sha256": sha256_of(archive_path),
        "card": card_meta,
        "files": {"fp32": FP32_FILE, "int8": INT8_FILE},
        **family_meta,
    }
    meta[LENGTHS_KEY] = exported_lengths(meta)  # checked at load: an edited vocabulary or label list is refused
    (output_dir / META_FILE).write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    record_file_hashes(output_dir)  # checked at every load: a changed or cut-short file is refused
    finish = getattr(module, "finish_folder", None)
    if split_graphs and finish is not None:
        finish(output_dir)
    logger.info("exported %s (%s) to %s", archive_path, family, output_dir)
    return output_dir
