"""Archives and checkpoints from elsewhere must not run code: malicious pickles are refused by the
real allennlp loaders, and archive members cannot escape the extraction folder."""

import io
import os
import pickle
import re
import shutil
import tarfile
from pathlib import Path

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.training.checkpointer import Checkpointer

from green_nlp.patches.weights_only_check import PickledCodeRefused, weights_only_disabled
from tests.conftest import FIXTURES, REPO_ROOT

TEACHER = FIXTURES / "archives" / "tiny_parser_teacher.tar.gz"


class _Payload:
    """Unpickling this calls `Path.touch(marker)`: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _malicious_weights(path: Path, marker: Path) -> None:
    """A file `torch.load` would accept with weights_only=False, holding a code-running object."""
    torch.save({"text_field_embedder.token_embedder_tokens.weight": torch.zeros(2), "x": _Payload(marker)}, path)


def _extract(archive: Path, folder: Path) -> Path:
    with tarfile.open(archive, "r:gz") as tar:
        tar.extractall(folder, filter="data")
    return folder


def _repack(folder: Path, archive: Path) -> None:
    with tarfile.open(archive, "w:gz") as tar:
        for item in sorted(folder.iterdir()):
            tar.add(item, arcname=item.name)


def test_pickle_payload_really_runs_without_weights_only(tmp_path):
    """The payload is live (so the refusals below mean something)."""
    marker = tmp_path / "ran"
    _malicious_weights(tmp_path / "w.th", marker)
    torch.load(tmp_path / "w.th", weights_only=False)
    assert marker.exists()


@pytest.mark.skipif(weights_only_disabled(), reason="TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD is set")
def test_malicious_weights_in_archive_are_refused(tmp_path):
    folder = _extract(TEACHER, tmp_path / "unpacked")
    marker = tmp_path / "ran"
    _malicious_weights(folder / "weights.th", marker)
    bad_archive = tmp_path / "model.tar.gz"
    _repack(folder, bad_archive)
    with pytest.raises(PickledCodeRefused) as refused:
        load_archive(str(bad_archive))
    assert not marker.exists()
    message = str(refused.value)
    assert f"archive {bad_archive} (weights.th) was refused" in message
    assert "green_nlp will not load pickled code" in message and "asks for the Python object" in message
    assert "weights_only=False" not in message and "weights_only` set to `False" not in message
    assert isinstance(refused.value, pickle.UnpicklingError)  # callers catching torch's type still do


@pytest.mark.skipif(weights_only_disabled(), reason="TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD is set")
def test_malicious_best_th_and_training_state_are_refused(tmp_path):
    """What the benchmarks and `allennlp train -r` load from a serialization folder."""
    run = _extract(TEACHER, tmp_path / "run")
    marker = tmp_path / "ran"
    _malicious_weights(run / "best.th", marker)
    with pytest.raises(PickledCodeRefused, match=f"weights file {re.escape(str(run / 'best.th'))} was refused"):
        load_archive(str(run), weights_file=str(run / "best.th"))
    shutil.copy(run / "best.th", run / "model_state_e1_b0.th")
    _malicious_weights(run / "training_state_e1_b0.th", marker)
    with pytest.raises(PickledCodeRefused, match=f"checkpoint in {re.escape(str(run))} was refused.*pickled code"):
        Checkpointer(str(run)).load_checkpoint()
    assert not marker.exists()


def test_clean_archive_still_loads():
    assert load_archive(str(TEACHER)).model is not None


def _archive_with_member(tmp_path: Path, info: tarfile.TarInfo, data: bytes = b"") -> Path:
    folder = _extract(TEACHER, tmp_path / "unpacked")
    archive = tmp_path / "model.tar.gz"
    _repack(folder, archive)
    with tarfile.open(archive, "r:gz") as tar:
        members = [(m, tar.extractfile(m).read() if m.isfile() else None) for m in tar.getmembers()]
    with tarfile.open(archive, "w:gz") as tar:
        for member, content in members:
            tar.addfile(member, io.BytesIO(content) if content is not None else None)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return archive


def test_archive_member_outside_the_folder_is_refused(tmp_path):
    escaped = tmp_path / "escaped.txt"
    depth = len(Path(os.path.realpath(os.sep + "tmp")).parts) + 8
    info = tarfile.TarInfo("../" * depth + str(escaped).lstrip("/"))
    archive = _archive_with_member(tmp_path, info, b"written outside")
    with pytest.raises(ConfigurationError, match="refused"):
        load_archive(str(archive))
    assert not escaped.exists()


@pytest.mark.parametrize(
    "name, reason",
    [
        ("/{tmp}/absolute.txt", "absolute path"),  # tarfile's data filter alone strips the "/" and extracts it
        ("vocabulary/../../dotdot.txt", "'..' part"),
        ("vocabulary/../inside.txt", "'..' part"),  # stays inside, still refused: a name is taken as written
    ],
    ids=["absolute", "dotdot-out", "dotdot-in"],
)
def test_archive_member_with_an_absolute_or_dotdot_name_is_refused(tmp_path, name, reason):
    name = name.format(tmp=str(tmp_path).strip("/"))
    archive = _archive_with_member(tmp_path, tarfile.TarInfo(name), b"member data")
    with pytest.raises(ConfigurationError, match=f"archive {re.escape(str(archive))} was refused: member .*{reason}"):
        load_archive(str(archive))
    assert not (tmp_path / "absolute.txt").exists()


def test_archive_symlink_out_of_the_folder_is_refused(tmp_path):
    info = tarfile.TarInfo("vocabulary/link")
    info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
    archive = _archive_with_member(tmp_path, info)
    with pytest.raises(ConfigurationError, match="refused"):
        load_archive(str(archive))


def test_truncated_archive_gives_an_error_naming_it(tmp_path):
    truncated = tmp_path / "model.tar.gz"
    truncated.write_bytes(TEACHER.read_bytes()[: TEACHER.stat().st_size // 2])
    with pytest.raises(ConfigurationError, match=re.escape(str(truncated))):
        load_archive(str(truncated))


def test_green_nlp_never_unpickles_without_weights_only():
    """Audit: any torch.load in the package passes weights_only=True; no pickle/dill loads at all."""
    offenders = []
    for path in sorted((REPO_ROOT / "green_nlp").rglob("*.py")):
        text = path.read_text()
        for match in re.finditer(r"torch\.load\((.*?)\)\s*$", text, flags=re.MULTILINE):
            if "weights_only=True" not in match.group(1):
                offenders.append(f"{path.name}: torch.load({match.group(1)})")
        offenders += [f"{path.name}: {m}" for m in re.findall(r"\b(?:pickle|dill|cloudpickle|joblib)\.loads?\(", text)]
    assert not offenders, offenders


def _garbage(folder: Path) -> None:
    (folder / "weights.th").write_bytes(b"garbage" * 100)


def _cut(folder: Path) -> None:
    weights = folder / "weights.th"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])


def _grown_vocabulary(folder: Path) -> None:
    with open(folder / "vocabulary" / "deprel_labels.txt", "a", encoding="utf-8") as labels:
        labels.write("extra1\nextra2\n")


@pytest.mark.parametrize(
    "damage, member, reason",
    [
        (_garbage, "weights.th", "UnpicklingError: its bytes are not a weights file torch wrote"),
        (_cut, "weights.th", "cannot be loaded"),
        # allennlp then looks for best.th, a serialization folder's name for the weights
        (lambda folder: (folder / "weights.th").unlink(), "best.th", "No such file or directory: 'best.th'"),
        (
            _grown_vocabulary,
            "weights.th",
            "do not fit its vocabulary and config (size mismatch for label_scorer.weight",
        ),
    ],
)
def test_a_damaged_archive_is_one_error_naming_it_not_its_temporary_folder(tmp_path, damage, member, reason):
    folder = _extract(TEACHER, tmp_path / "unpacked")
    damage(folder)
    bad_archive = tmp_path / "model.tar.gz"
    _repack(folder, bad_archive)
    with pytest.raises(ConfigurationError) as refused:
        load_archive(str(bad_archive))
    message = str(refused.value)
    assert message.startswith(f"archive {bad_archive} ({member}) cannot be loaded: ") and reason in message
    assert "It is damaged, or its files were changed" in message and "/tmp" + "/tmp" not in message
    assert "weights_only" not in message and not isinstance(refused.value, PickledCodeRefused)
