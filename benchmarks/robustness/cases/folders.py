"""Runtime model folders from elsewhere, each a copy of the shipped sentiment folder made bad on
purpose: paths that leave the folder, changed files, broken graphs, missing keys. A security case is
handled only when the load is refused with one line naming the folder and no Python-level open
touched a file outside it (an audit hook records every open while a case runs)."""

import contextlib
import io
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.common import REPO
from benchmarks.robustness.cases.case import FOLDERS, RUNTIME, Case, Outcome
from benchmarks.robustness.cases.scrub import scrub
from benchmarks.robustness.cases.workspace import work_folder

SHIPPED = REPO / "pretrained" / "en-sst2-sentiment"
GRAPH, NGRAMS, META = "model.int8.onnx", "ngrams.txt", "green_model.json"

_opened: list[str] = []
_armed = [False]


def _audit(event: str, args: Any) -> None:
    if _armed[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        _opened.append(os.path.realpath(os.fsdecode(args[0])))


_hooked = [False]


def outside() -> Path:
    """A valid graph and n-gram list beside the folders: followed, they would load without error."""
    place = work_folder() / "outside"
    if not place.exists():
        place.mkdir()
        for name in (GRAPH, NGRAMS):
            shutil.copy(SHIPPED / name, place / name)
    return place


def _copy(name: str) -> Path:
    folder = work_folder() / "folders" / name
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(SHIPPED, folder)
    return folder


def _meta(folder: Path) -> dict[str, Any]:
    return json.loads((folder / META).read_text(encoding="utf-8"))


def _write_meta(folder: Path, meta: dict[str, Any]) -> None:
    (folder / META).write_text(json.dumps(meta), encoding="utf-8")


def _edit_meta(edit: Callable[[dict[str, Any]], None], rehash: bool = False) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        meta = _meta(folder)
        edit(meta)
        _write_meta(folder, meta)
        if rehash:
            _rehash(folder)

    return apply


def _rehash(folder: Path) -> None:
    from green_nlp.runtime.model_folder import record_file_hashes

    record_file_hashes(folder)


def _graph_bytes(data: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    """Rewrite the graph, then record its new sha256: the check that must stop it is onnxruntime's."""

    def apply(folder: Path) -> None:
        (folder / GRAPH).write_bytes(data((folder / GRAPH).read_bytes()))
        _rehash(folder)

    return apply


def _symlink(name: str) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        (folder / name).unlink()
        (folder / name).symlink_to(outside() / name)

    return apply


def _metadata_outside(folder: Path) -> None:
    """green_model.json moved beside the folders and linked back in."""
    moved = outside() / f"{folder.name}_{META}"
    (folder / META).replace(moved)
    (folder / META).symlink_to(moved)


def _flip_byte(folder: Path) -> None:
    data = bytearray((folder / GRAPH).read_bytes())
    data[len(data) // 2] ^= 1
    (folder / GRAPH).write_bytes(bytes(data))


def _pop(*keys: str) -> Callable[[dict[str, Any]], None]:
    def edit(meta: dict[str, Any]) -> None:
        for key in keys:
            meta.pop(key, None)

    return edit


def _set(path: tuple[str, ...], value: Any, drop_hashes: bool = False) -> Callable[[dict[str, Any]], None]:
    def edit(meta: dict[str, Any]) -> None:
        target = meta
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        if drop_hashes:
            meta.pop("sha256", None)

    return edit


def refused_load(name: str, make: Callable[[Path], None]) -> str:
    """Load the bad copy `name`; return the refusal's message. Anything that is not a one-line
    ModelFolderError starting with the folder, or any open of a file outside it, is raised as a
    RuntimeError (not handled)."""
    from green_nlp.runtime import load
    from green_nlp.runtime.errors import ModelFolderError

    if not _hooked[0]:
        sys.addaudithook(_audit)  # cannot be removed: it records nothing unless armed
        _hooked[0] = True
    folder = _copy(name)
    make(folder)
    _opened.clear()
    _armed[0] = True
    try:
        load(folder)
    except ModelFolderError as error:
        message = str(error)
    except Exception as error:  # noqa: BLE001  any other refusal is judged, not raised through
        raise RuntimeError(f"not a ModelFolderError naming the folder: {type(error).__name__}: {error}") from None
    else:
        raise RuntimeError("the folder loaded: no refusal")
    finally:
        _armed[0] = False
    strays = sorted({path for path in _opened if not path.startswith(str(folder.resolve()) + os.sep)})
    strays = [path for path in strays if not path.startswith(sys.prefix) and "site-packages" not in path]
    if strays:
        raise RuntimeError(f"opened files outside the folder: {[scrub(p) for p in strays]}")
    if "\n" in message or not message.startswith(str(folder)):
        raise RuntimeError(f"the refusal is not one line starting with the folder: {message!r}")
    return message


def refusal_check(*wanted: str) -> Callable[[str], Outcome]:
    def check(message: str) -> Outcome:
        missing = [part for part in wanted if part not in message]
        return not missing, f"refused: {scrub(message)[:220]}" + (f"; lacks {missing}" if missing else "")

    return check


def _folder_case(name: str, expected: str, make: Callable[[Path], Any], *wanted: str) -> Case:
    return Case(
        f"model folder: {name}",
        "green_nlp.runtime.load(folder)",
        expected + "; one line naming the folder, no file outside it opened",
        lambda: refused_load(name.replace(" ", "_").replace("/", "_"), make),
        check=refusal_check(*wanted),
        entry=FOLDERS,
    )


BROKEN_FOR_LISTING = ("escaping graph", "cut graph", "missing labels")


def models_listing() -> tuple[str, dict[str, str]]:
    """`green-nlp models` with GREEN_NLP_MODELS on a folder of good and broken copies: its output
    and, for each copy, its line's state."""
    from green_nlp.cli import run_runtime

    place = work_folder() / "listing"
    shutil.rmtree(place, ignore_errors=True)
    place.mkdir()
    makes: dict[str, Callable[[Path], None]] = {
        "good": lambda folder: None,
        "escaping graph": _edit_meta(_set(("files", "int8"), "../../../../../../../etc/passwd")),
        "cut graph": _graph_bytes(lambda data: data[: len(data) // 2]),
        "missing labels": _edit_meta(_pop("labels"), rehash=True),
    }
    for name, make in makes.items():
        folder = place / name.replace(" ", "-")
        shutil.copytree(SHIPPED, folder)
        make(folder)
    saved = os.environ.get("GREEN_NLP_MODELS")
    os.environ["GREEN_NLP_MODELS"] = str(place)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            status = run_runtime(["models"])
    finally:
        if saved is None:
            os.environ.pop("GREEN_NLP_MODELS")
        else:
            os.environ["GREEN_NLP_MODELS"] = saved
    states = {}
    for line in out.getvalue().splitlines():
        fields = line.split("\t")
        if len(fields) >= 2:
            states[fields[0].replace("-", " ")] = fields[1]
    return f"exit {status}", states


def listing_check(result: tuple[str, dict[str, str]]) -> Outcome:
    status, states = result
    ok = (
        status == "exit 0"
        and states.get("good") == "ok"
        and all(states.get(name, "").startswith("broken") for name in BROKEN_FOR_LISTING)
    )
    shown = {name: scrub(state)[:90] for name, state in states.items() if name in {"good", *BROKEN_FOR_LISTING}}
    return ok, f"{status}; states {shown}"


def folder_cases() -> list[Case]:
    escape = "../../../../../../../../etc/passwd"
    out_graph = f"../../outside/{GRAPH}"
    return [
        _folder_case(
            "graph path ../../etc/passwd",
            "refused: files.int8 leaves the folder",
            _edit_meta(_set(("files", "int8"), escape)),
            "files.int8",
            "outside the folder",
        ),
        _folder_case(
            "graph path to a valid graph outside, no hashes",
            "refused: files.int8 leaves the folder",
            _edit_meta(_set(("files", "int8"), out_graph, drop_hashes=True)),
            "files.int8",
            "outside the folder",
        ),
        _folder_case(
            "absolute n-gram path",
            "refused: ngrams.file leaves the folder",
            lambda folder: _edit_meta(_set(("ngrams", "file"), str(outside() / NGRAMS), True))(folder),
            "ngrams.file",
            "outside the folder",
        ),
        _folder_case(
            "card file ../etc/passwd",
            "refused: card.file leaves the folder",
            _edit_meta(_set(("card", "file"), escape)),
            "card.file",
        ),
        _folder_case(
            "graph symlinked outside",
            "refused: files.int8 resolves outside the folder",
            lambda folder: (_symlink(GRAPH)(folder), _edit_meta(_pop("sha256"))(folder)) and None,  # noqa: SIM223 (both run, then None)
            "files.int8",
            "outside the folder",
        ),
        _folder_case(
            "n-gram list symlinked outside",
            "refused: ngrams.file resolves outside the folder",
            _symlink(NGRAMS),
            "ngrams.file",
            "outside the folder",
        ),
        _folder_case(
            "one byte of the graph changed",
            "refused: the graph's sha256 differs from the recorded one",
            _flip_byte,
            GRAPH,
            "sha256",
        ),
        _folder_case(
            "n-gram list changed",
            "refused: the n-gram list's sha256 differs",
            lambda folder: (folder / NGRAMS).write_text((folder / NGRAMS).read_text() + "extra\n") and None,
            NGRAMS,
            "sha256",
        ),
        _folder_case(
            "no labels key",
            "refused naming the missing key 'labels'",
            _edit_meta(_pop("labels"), rehash=True),
            "labels",
        ),
        _folder_case(
            "no ngrams key",
            "refused naming the missing key 'ngrams'",
            _edit_meta(_pop("ngrams"), rehash=True),
            "ngrams",
        ),
        _folder_case(
            "graph cut in half",
            "refused naming the graph (hash re-recorded: onnxruntime's check)",
            _graph_bytes(lambda data: data[: len(data) // 2]),
            GRAPH,
        ),
        _folder_case("empty graph", "refused naming the empty graph", _graph_bytes(lambda data: b""), GRAPH),
        _folder_case(
            "garbage graph", "refused naming the graph", _graph_bytes(lambda data: b"\x00garbage" * 64), GRAPH
        ),
        _folder_case(
            "green_model.json not JSON",
            "refused naming green_model.json and the place",
            lambda folder: (folder / META).write_text('{"family": "classifier",'),
            META,
        ),
        _folder_case(
            "unknown family", "refused naming the family", _edit_meta(_set(("family",), "summarizer")), "summarizer"
        ),
        _folder_case(
            "green_model.json symlinked outside",
            "refused: the metadata resolves outside the folder",
            _metadata_outside,
            META,
            "outside the folder",
        ),
        _folder_case(
            "green_model.json nested 100,000 deep",
            "refused as unreadable JSON, not a RecursionError",
            lambda folder: (folder / META).write_text("[" * 100_000 + "]" * 100_000),
            "nested too deeply",
        ),
        _folder_case(
            "a label holding a tab (hashes re-recorded)",
            "refused naming the key: a tab would break the output's columns",
            _edit_meta(_set(("labels",), ["negative", "posi\ttive"]), rehash=True),
            "labels",
            "without tabs",
        ),
        _folder_case(
            "an input name the graph lacks (hashes re-recorded)",
            "refused at load naming the key, not on every line",
            _edit_meta(_set(("inputs", "ngram_ids"), "ids"), rehash=True),
            "inputs.ngram_ids",
            "does not have",
        ),
        Case(
            "green-nlp models: broken folders",
            "green-nlp models (GREEN_NLP_MODELS on good and broken copies)",
            "each broken folder listed as broken with its reason, the good one as ok",
            models_listing,
            check=listing_check,
            entry=RUNTIME,
        ),
    ]
