"""Archives made bad on purpose: a path that climbs out, no config, a vocabulary of its own, a
pickled payload."""

import tarfile
from pathlib import Path
from typing import Any

import torch

from benchmarks.common import REPO
from benchmarks.robustness.cases.case import TEACHER
from benchmarks.robustness.cases.loaders import load_archive
from benchmarks.robustness.cases.workspace import work_folder


def _tar_of(name: str, members: list[tuple[str, bytes]]) -> Path:
    import io

    path = work_folder() / name
    with tarfile.open(path, "w:gz") as tar:
        for member, data in members:
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def traversal_archive() -> Path:
    return _tar_of("traversal.tar.gz", [("config.json", b"{}"), ("vocabulary/x.txt", b"a\n"), ("../escaped.txt", b"x")])


def archive_without_config() -> Path:
    return _tar_of("no_config.tar.gz", [("notes.txt", b"not a model")])


def student_with_its_own_vocabulary(folder: Path) -> Path:
    config = folder / "student_own_vocabulary.jsonnet"
    config.write_text(
        f"local base = import '{REPO / 'fixtures' / 'parser' / 'student_experiment.jsonnet'}';\n"
        "base + { vocabulary:: {} }  // hidden: the student builds its own vocabulary\n"
    )
    return config


def load_without_running(archive: Path, marker: Path) -> Any:
    """`load_archive`, then make sure the payload (which creates `marker`) did not run."""
    try:
        return load_archive(archive)
    finally:
        if marker.exists():
            raise RuntimeError("the pickled payload ran while loading the archive")


def archive_with_pickled_code(folder: Path) -> Path:
    unpacked = folder / "unpacked"
    with tarfile.open(TEACHER, "r:gz") as tar:
        tar.extractall(unpacked, filter="data")

    class Payload:
        def __reduce__(self):
            return (Path.touch, (folder / "payload_ran",))

    torch.save({"payload": Payload()}, unpacked / "weights.th")
    archive = folder / "model.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for item in sorted(unpacked.iterdir()):
            tar.add(item, arcname=item.name)
    return archive
