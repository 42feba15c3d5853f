"""The other front doors of issue 44: spaCy components on runtime folders and archives (NUL docs,
over-long docs, config typos), config typos in `allennlp train`, plain `allennlp predict`'s message
for a line without the key it reads, tar members with absolute paths, pickle refusals naming the
archive, and `--ray`'s local instance listening on loopback only."""

import functools
import ipaddress
import json
import os
import socket
import struct
from pathlib import Path
from typing import Any

from allennlp.common.checks import ConfigurationError

from benchmarks.common import REPO
from benchmarks.robustness import lines
from benchmarks.robustness.cases.archives import _tar_of, archive_with_pickled_code, load_without_running
from benchmarks.robustness.cases.case import (
    ARCHIVES,
    PREDICT,
    RAY,
    SHIPPED_PARSER,
    SPACY,
    TAGGER,
    TEACHER,
    TRAIN,
    Case,
    Outcome,
)
from benchmarks.robustness.cases.loaders import load_archive, train
from benchmarks.robustness.cases.models import dan_archive, predictor
from benchmarks.robustness.cases.scrub import scrub
from benchmarks.robustness.cases.workspace import work_folder


# ------------------------------------------------------------------------------------ spaCy
@functools.cache
def runtime_pipeline(component: str) -> Any:
    import spacy

    nlp = spacy.blank("en")
    if component == "parser":
        nlp.add_pipe("green_nlp_parser", config={"model": SHIPPED_PARSER, "batch_size": 8})
    elif component == "ner":
        nlp.add_pipe("sentencizer")
        nlp.add_pipe("green_nlp_ner", config={"archive": str(TAGGER), "batch_size": 8})
    else:
        nlp.add_pipe("green_nlp_classifier", config={"model": "en-sst2-sentiment", "batch_size": 8})
    return nlp


def _add_pipe(factory: str, config: dict[str, Any]) -> Any:
    import spacy

    return spacy.blank("en").add_pipe(factory, config=config)


def _parses(doc: Any) -> Any:
    return [(t.head.i, t.dep_, t.pos_) for t in doc]


def _ents(doc: Any) -> Any:
    return [(e.start, e.end, e.label_) for e in doc.ents]


def _cats(doc: Any) -> Any:
    return dict(doc.cats)


PARSER_NUL = ["The cat sat on the mat.", "A \x00 dog barked.", "Birds sing."]
LONG_DOC = " ".join(["word"] * 1001)
PARSER_LONG = ["The cat sat on the mat.", LONG_DOC, "Birds sing."]
NER_TEXTS = ["EU rejects German call.", LONG_DOC + " .", "Peter Blackburn met the EU \x00 people.", "BRUSSELS 1996"]
CLASSIFIER_NUL = ["a fine and moving film", "binary \x00 junk", "dull and flat"]


def _pipe_case(name: str, component: str, texts: list[str], bad: dict[int, str], annotation: Any) -> Case:
    return Case(
        f"nlp.pipe: {name}",
        f"spaCy nlp.pipe with green_nlp_{component}",
        "the bad docs flagged in doc._.green_error with the reason, the others annotated as alone",
        lambda: lines.spacy_pipe(runtime_pipeline(component), texts, 8),
        check=lines.spacy_check(texts, bad, annotation, lambda text: runtime_pipeline(component)(text)),
        entry=SPACY,
    )


def single_name_check(error_text: str) -> Outcome:
    ok = error_text.count("green_nlp_parser") == 1 and "NUL" in error_text
    return ok, f"nlp(text) raised: {scrub(error_text)[:160]}"


def _nlp_error(component: str, text: str) -> str:
    try:
        runtime_pipeline(component)(text)
    except ValueError as error:
        return str(error)
    return "no error"


def spacy_cases() -> list[Case]:
    typo = {"modle": SHIPPED_PARSER}
    return [
        _pipe_case("a NUL doc, runtime parser", "parser", PARSER_NUL, {1: "NUL"}, _parses),
        _pipe_case("an over-long doc, runtime parser", "parser", PARSER_LONG, {1: "max_sentence_length=1000"}, _parses),
        _pipe_case(
            "an over-long doc and a NUL doc, NER", "ner", NER_TEXTS, {1: "max_sentence_length=1000", 2: "NUL"}, _ents
        ),
        _pipe_case("a NUL doc, runtime classifier", "classifier", CLASSIFIER_NUL, {1: "NUL"}, _cats),
        Case(
            "nlp(text): a NUL doc, runtime parser",
            "nlp(text) with green_nlp_parser",
            "a ValueError naming the component once and the NUL",
            lambda: _nlp_error("parser", "A \x00 dog."),
            check=single_name_check,
            entry=SPACY,
        ),
        Case(
            "spaCy config: misspelt key 'modle'",
            "nlp.add_pipe('green_nlp_parser', config={'modle': ...})",
            "a config error naming the key",
            lambda: _add_pipe("green_nlp_parser", typo),
            error=["modle"],
            error_types=(ValueError,),
            entry=SPACY,
        ),
        Case(
            "spaCy config: neither model nor archive",
            "nlp.add_pipe('green_nlp_parser')",
            "an error saying to give model or archive",
            lambda: _add_pipe("green_nlp_parser", {}),
            error=["model", "archive"],
            error_types=(ValueError,),
            entry=SPACY,
        ),
        Case(
            "spaCy config: both model and archive",
            "nlp.add_pipe('green_nlp_classifier', config={both})",
            "an error saying exactly one",
            lambda: _add_pipe("green_nlp_classifier", {"model": "en-sst2-sentiment", "archive": str(dan_archive())}),
            error=["not both"],
            error_types=(ValueError,),
            entry=SPACY,
        ),
        Case(
            "spaCy config: an unknown model",
            "nlp.add_pipe('green_nlp_parser', config={'model': 'en-nope'})",
            "an error naming the model and the available ones",
            lambda: _add_pipe("green_nlp_parser", {"model": "en-nope"}),
            error=["en-nope", SHIPPED_PARSER],
            error_types=(ValueError, FileNotFoundError),
            entry=SPACY,
        ),
        Case(
            "spaCy config: max_sentence_length 0",
            "nlp.add_pipe('green_nlp_parser', config={max_sentence_length: 0})",
            "an error naming the setting",
            lambda: _add_pipe("green_nlp_parser", {"model": SHIPPED_PARSER, "max_sentence_length": 0}),
            error=["max_sentence_length"],
            error_types=(ValueError,),
            entry=SPACY,
        ),
    ]


# ------------------------------------------------------------------------------- train typos
def _typo_config(name: str, section: str, edit: dict[str, Any]) -> Path:
    """The tiny parser experiment with one key of `section` misspelt (merged over it in Jsonnet)."""
    path = work_folder() / f"typo_{name}.jsonnet"
    base = REPO / "fixtures" / "parser" / "experiment.jsonnet"
    path.write_text(f"local base = import '{base}';\nbase + {{ {section}+: {json.dumps(edit)} }}\n")
    return path


def train_cases() -> list[Case]:
    def typo(name: str, where: str, section: str, edit: dict[str, Any], key: str, closest: str) -> Case:
        return Case(
            f"allennlp train: misspelt {where} key '{key}'",
            "allennlp train (tiny parser config)",
            f"ConfigurationError naming '{key}', its section and the closest key '{closest}'",
            lambda: train(_typo_config(name, section, edit)),
            error=[key, closest],
            error_types=(ConfigurationError,),
            entry=TRAIN,
        )

    return [
        typo("num_epoch", "trainer", "trainer", {"num_epoch": 1}, "num_epoch", "num_epochs"),
        typo(
            "sentense",
            "dataset reader",
            "dataset_reader",
            {"max_sentense_length": 50},
            "max_sentense_length",
            "max_sentence_length",
        ),
        typo("dropuot", "model", "model", {"dropuot": 0.1}, "dropuot", "dropout"),
        typo("batch", "data loader", "data_loader", {"batch_sise": 4}, "batch_sise", "batch_size"),
    ]


# --------------------------------------------------------------------------- allennlp predict
def _predict_keys(archive: Path, name: Any, line: dict[str, Any]) -> dict[str, Any]:
    path = work_folder() / f"keys_{archive.stem}.jsonl"
    path.write_text(json.dumps(line) + "\n")
    run = lines.allennlp_predict(predictor(archive, name), path, work_folder())
    return run.outputs[0]


def keys_check(written: list[str]) -> Any:
    def check(record: dict[str, Any]) -> Outcome:
        error = str(record.get("error", ""))
        ok = all(repr(key) in error for key in written) and "'line'" not in error
        return ok, f"error record: {scrub(error)[:180]}"

    return check


def predict_cases() -> list[Case]:
    return [
        Case(
            "allennlp predict: classifier line without 'sentence'",
            "allennlp predict (n-gram DAN)",
            "an error record naming the keys the user wrote (not 'line', which predict adds)",
            lambda: _predict_keys(dan_archive(), None, {"label": 1, "txt": "a fine film"}),
            check=keys_check(["label", "txt"]),
            entry=PREDICT,
        ),
        Case(
            "allennlp predict: tagger line without 'sentence'",
            "allennlp predict (LD-Net tagger)",
            "an error record naming the keys the user wrote",
            lambda: _predict_keys(TAGGER, None, {"tokens": ["EU", "rejects"]}),
            check=keys_check(["tokens"]),
            entry=PREDICT,
        ),
    ]


# ------------------------------------------------------------------------- archives: tar, pickle
def absolute_member_archive() -> tuple[Path, Path]:
    target = work_folder() / "absolute_member_landed.txt"
    archive = _tar_of("absolute.tar.gz", [("config.json", b"{}"), (str(target), b"x")])
    return archive, target


def refused_without_writing() -> str:
    archive, target = absolute_member_archive()
    try:
        load_archive(archive)
    except Exception as error:  # noqa: BLE001  judged below
        if target.exists() or Path("/" + target.name).exists():
            raise RuntimeError(f"refused, but the member was written: {error}") from None
        raise
    raise RuntimeError("the archive loaded")


def pickle_named_check(archive: Path) -> Any:
    def run() -> str:
        try:
            load_without_running(archive, archive.parent / "payload_ran")
        except Exception as error:  # noqa: BLE001
            return f"{type(error).__name__}: {error}"
        return "no error"

    return run


def pickle_check(result: str) -> Outcome:
    ok = (
        result.startswith("PickledCodeRefused")
        and "model.tar.gz" in result
        and "will not load pickled code" in result
        and "weights_only=False" not in result
    )
    return ok, scrub(result)[:220]


def archive_cases() -> list[Case]:
    folder = work_folder() / "pickled"
    folder.mkdir(exist_ok=True)
    payload = archive_with_pickled_code(folder)
    return [
        Case(
            "archive with an absolute-path member",
            "load_archive",
            "refused as docs/safety.md says (not stripped and extracted), nothing written",
            refused_without_writing,
            error=["absolute"],
            error_types=(ConfigurationError, ValueError),
            entry=ARCHIVES,
        ),
        Case(
            "pickle refusal names the archive",
            "load_archive on an archive with a pickled payload",
            "PickledCodeRefused naming the archive, saying green_nlp will not load pickled code, no weights_only=False",
            pickle_named_check(payload),
            check=pickle_check,
            entry=ARCHIVES,
        ),
        Case(
            "predictor on the teacher archive (control)",
            "load_archive (a good archive)",
            "loads: the refusals above are not refusing everything",
            lambda: load_archive(TEACHER),
            check=lambda archive: (archive.model is not None, "loaded"),
            entry=ARCHIVES,
        ),
    ]


# -------------------------------------------------------------------------------------- Ray
def _tree(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    tree, grown = {root}, True
    while grown:
        children = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= children
        grown = bool(children)
    return tree


def _listening(pids: set[int]) -> set[tuple[str, str]]:
    """(address, process name) of every listening TCP socket the processes hold (Linux /proc)."""
    owners = {}
    for pid in pids:
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    owners[link[8:-1]] = name
        except OSError:
            continue
    found = set()
    for table, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        if not Path(table).exists():
            continue
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            if fields[3] == "0A" and fields[9] in owners:  # 0A: LISTEN
                raw = fields[1].split(":")[0]
                packed = b"".join(struct.pack("<I", int(raw[i : i + 8], 16)) for i in range(0, len(raw), 8))
                found.add((socket.inet_ntop(family, packed), owners[fields[9]]))
    return found


def ray_local_sockets() -> set[tuple[str, str]]:
    import ray

    from green_nlp.distributed_ray.options import LOCAL
    from green_nlp.distributed_ray.pool import connected

    if ray.is_initialized():
        raise RuntimeError("a Ray instance is already up in this process")
    with connected(LOCAL):
        return _listening(_tree(os.getpid()))


def loopback_check(found: set[tuple[str, str]]) -> Outcome:
    def loopback(address: str) -> bool:
        ip = ipaddress.ip_address(address)
        return (getattr(ip, "ipv4_mapped", None) or ip).is_loopback

    names = {name for _, name in found}
    wide = sorted(f"{name} on {address}" for address, name in found if not loopback(address))
    dashboard = any("dashboard" in name for name in names)
    ok = {"gcs_server", "raylet"} <= names and not wide and not dashboard
    return ok, f"{len(found)} listening sockets ({', '.join(sorted(names))[:120]}); not loopback: {wide or 'none'}"


def ray_cases() -> list[Case]:
    if not Path("/proc/net/tcp").exists():
        return []
    try:
        import ray  # noqa: F401
    except ImportError:
        return []
    return [
        Case(
            "--ray local: listening sockets",
            "green_nlp.distributed_ray.pool.connected('local')",
            "Ray's daemons (gcs_server, raylet, workers) listen on loopback only, no dashboard",
            ray_local_sockets,
            check=loopback_check,
            entry=RAY,
        ),
    ]


def door_cases() -> list[Case]:
    return spacy_cases() + train_cases() + predict_cases() + archive_cases() + ray_cases()
