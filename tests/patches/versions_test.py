"""Each patch names the allennlp it was written for; on another release it is skipped with a
warning, or refused when it is a safety fix, before anything of allennlp is replaced."""

import importlib
import logging

import pytest

from green_nlp import patches
from green_nlp.patches import versions
from green_nlp.patches.versions import PatchVersionError, WrittenFor


def test_every_patch_names_the_installed_allennlp_and_applies():
    for name in patches.PATCHES:
        written_for = importlib.import_module(f"green_nlp.patches.{name}").WRITTEN_FOR
        assert written_for == WrittenFor("allennlp", versions.ALLENNLP_VERSION, written_for.required)
    assert versions.installed_version("allennlp") == versions.ALLENNLP_VERSION
    assert patches.applied()  # by green_nlp.register() in conftest


def test_another_release_skips_the_patch_with_a_warning(monkeypatch, caplog):
    monkeypatch.setattr(versions, "installed_version", lambda package: "2.11.0")
    with caplog.at_level(logging.WARNING, logger="green_nlp.patches.versions"):
        assert versions.check("lr_scheduler", WrittenFor("allennlp", "2.10.1")) is False
    assert "'lr_scheduler' was written for allennlp 2.10.1, but allennlp 2.11.0 is installed" in caplog.text


def test_a_required_patch_refuses_another_release(monkeypatch):
    monkeypatch.setattr(versions, "installed_version", lambda package: "2.11.0")
    with pytest.raises(PatchVersionError, match="archive_extraction.*2.10.1.*2.11.0.*cannot be skipped"):
        versions.check("archive_extraction", WrittenFor("allennlp", "2.10.1", required=True))


def test_apply_all_applies_nothing_on_another_release(monkeypatch):
    monkeypatch.setattr(versions, "installed_version", lambda package: None)  # e.g. allennlp not installed
    monkeypatch.setattr(patches, "PATCHES", ("lr_scheduler", "ddp_metrics"))
    called = []
    for name in patches.PATCHES:
        module = importlib.import_module(f"green_nlp.patches.{name}")
        monkeypatch.setattr(module, "apply", lambda name=name: called.append(name) or True)
    assert patches.apply_all() == [] and called == []


def test_only_the_safety_patch_is_required():
    required = [
        name for name in patches.PATCHES if importlib.import_module(f"green_nlp.patches.{name}").WRITTEN_FOR.required
    ]
    assert required == ["archive_extraction"]
