"""A refused or broken archive leaves no half-extracted temporary folder behind (issue 34).

Temporary folders are counted in a private temp dir: `tempfile.tempdir` is what `mkdtemp` (and so
allennlp's and green_nlp's extraction) uses.
"""

import io
import tarfile
import tempfile
from pathlib import Path

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive

import green_nlp.plugin  # noqa: F401  (applies the patches, the safe archive extraction among them)
from tests.conftest import BAD_INPUTS, FIXTURES


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def _tar(path: Path, members) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_a_truncated_archive_leaves_no_folder(private_tmp):
    with pytest.raises(ConfigurationError, match="truncated or corrupt"):
        load_archive(str(BAD_INPUTS / "archive_truncated.tar.gz"))
    assert list(private_tmp.iterdir()) == []


def test_a_path_traversal_member_after_good_ones_leaves_no_folder(private_tmp, tmp_path):
    archive = _tar(
        tmp_path / "evil.tar.gz", [("config.json", b"{}"), ("vocabulary/x.txt", b"a\n"), ("../escaped.txt", b"gotcha")]
    )
    with pytest.raises(ConfigurationError, match="refused"):
        load_archive(str(archive))
    assert list(private_tmp.iterdir()) == []
    assert not (private_tmp.parent / "escaped.txt").exists()


def test_an_archive_with_pickled_code_leaves_no_folder(private_tmp, tmp_path):
    with tarfile.open(FIXTURES / "archives" / "tiny_parser_teacher.tar.gz", "r:gz") as tar:
        members = [(m.name, tar.extractfile(m).read()) for m in tar.getmembers() if m.isfile()]

    class Payload:
        def __reduce__(self):
            return (Path.touch, (tmp_path / "payload_ran",))

    weights = io.BytesIO()
    torch.save({"payload": Payload()}, weights)
    members = [(name, weights.getvalue() if name == "weights.th" else data) for name, data in members]
    with pytest.raises(Exception, match="green_nlp will not load pickled code"):
        load_archive(str(_tar(tmp_path / "payload.tar.gz", members)))
    assert not (tmp_path / "payload_ran").exists()
    assert list(private_tmp.iterdir()) == []


def test_an_archive_without_config_is_named_and_leaves_no_folder(private_tmp, tmp_path):
    archive = _tar(tmp_path / "not_a_model.tar.gz", [("notes.txt", b"hello")])
    with pytest.raises(ConfigurationError, match="holds no config.json"):
        load_archive(str(archive))
    assert list(private_tmp.iterdir()) == []
