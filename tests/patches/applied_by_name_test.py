"""The two patches applied by name, not by `apply_all()`: AllenNLP's registry lookups registering
green_nlp first (`registry_lookup`), and quiet nltk downloads in `green-nlp` (`nltk_download`).
Each keeps the version check every patch has."""

import importlib
import io
import logging
import subprocess
import sys
from pathlib import Path

import nltk
import pytest
from allennlp.common.registrable import Registrable
from allennlp.models import Model

import green_nlp.patches
from green_nlp import patches
from green_nlp.patches import nltk_download, registry_lookup, versions
from green_nlp.patches.versions import WrittenFor
from tests.conftest import REPO_ROOT


def test_every_patch_module_is_applied_somewhere_and_names_its_version():
    modules = {path.stem for path in Path(green_nlp.patches.__file__).parent.glob("*.py")} - {"__init__", "versions"}
    assert modules == set(patches.PATCHES) | set(patches.APPLIED_ELSEWHERE)
    assert not set(patches.PATCHES) & set(patches.APPLIED_ELSEWHERE)
    for name in modules:
        written_for = importlib.import_module(f"green_nlp.patches.{name}").WRITTEN_FOR
        assert isinstance(written_for, WrittenFor)
        assert versions.installed_version(written_for.package) == written_for.version, name


def test_nothing_but_the_patches_module_replaces_allennlp_or_nltk_functions():
    """The replacements live in green_nlp/patches: no other module assigns to Registrable or nltk."""
    offenders = []
    for path in (REPO_ROOT / "green_nlp").rglob("*.py"):
        if path.parent.name == "patches":
            continue
        text = path.read_text()
        offenders += [f"{path}: {needle}" for needle in ("setattr(Registrable", "nltk.download =") if needle in text]
    assert offenders == []


def test_only_named_patches_are_applied_by_name():
    with pytest.raises(ValueError, match="'lr_scheduler' is not a patch applied by name"):
        patches.apply_one("lr_scheduler")


# ----------------------------------------------------------------------------------- registry_lookup
@pytest.fixture
def lookups():
    """Registrable's lookups as they are now, put back after the test whatever it did."""
    originals = {name: Registrable.__dict__[name] for name in registry_lookup.LOOKUPS}
    yield originals
    for name, original in originals.items():
        setattr(Registrable, name, original)


def test_the_first_lookup_registers_once_and_restores_allennlps_lookups(lookups):
    calls = []
    assert patches.apply_one("registry_lookup", lambda: calls.append("register")) is True
    assert registry_lookup.apply(lambda: calls.append("again")) is False  # already wrapped
    assert Registrable.__dict__["resolve_class_name"] is not lookups["resolve_class_name"]
    assert Model.by_name("green_ngram_dan").__name__ == "NgramDan"
    assert calls == ["register"]
    assert {name: Registrable.__dict__[name] for name in registry_lookup.LOOKUPS} == lookups
    Model.list_available()
    assert calls == ["register"]


def test_a_lookup_during_a_green_import_waits(lookups, monkeypatch):
    calls = []
    registry_lookup.apply(lambda: calls.append("register"))
    monkeypatch.setattr(registry_lookup, "_green_import_in_progress", lambda: True)
    assert "green_biaffine_parser" in Model.list_available()
    assert calls == []  # still wrapped: the next lookup outside an import registers
    monkeypatch.setattr(registry_lookup, "_green_import_in_progress", lambda: False)
    Model.list_available()
    assert calls == ["register"]


def test_another_allennlp_leaves_the_lookups_alone_with_a_warning(lookups, monkeypatch, caplog):
    monkeypatch.setattr(versions, "installed_version", lambda package: "2.11.0")
    with caplog.at_level(logging.WARNING, logger="green_nlp.patches.versions"):
        assert patches.apply_one("registry_lookup", lambda: None) is False
    assert "'registry_lookup' was written for allennlp 2.10.1, but allennlp 2.11.0 is installed" in caplog.text
    assert {name: Registrable.__dict__[name] for name in registry_lookup.LOOKUPS} == lookups


def test_importing_green_nlp_then_allennlp_applies_the_lookup_patch(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import green_nlp, sys\n"
            "assert 'green_nlp.patches' not in sys.modules\n"  # import green_nlp stays cheap
            "import allennlp.models\n"
            "from green_nlp import patches\n"
            "print(patches.applied(), 'green_nlp.plugin' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["['registry_lookup']", "False"]  # registered only at the first lookup


# ------------------------------------------------------------------------------------- nltk_download
def test_nltk_downloads_become_quiet_once(monkeypatch):
    seen = []
    monkeypatch.setattr(nltk, "download", lambda *args, **kwargs: seen.append((args, kwargs)) or False)
    assert patches.apply_one("nltk_download") is True
    assert nltk_download.apply() is False  # already wrapped
    assert nltk.download("punkt", quiet=False) is False
    ((args, kwargs),) = seen
    assert args == ("punkt",) and kwargs["quiet"] is True and isinstance(kwargs["print_error_to"], io.StringIO)


def test_another_nltk_keeps_nltks_download(monkeypatch, caplog):
    own = nltk.download
    monkeypatch.setattr(versions, "installed_version", lambda package: "3.9.1" if package == "nltk" else None)
    with caplog.at_level(logging.WARNING, logger="green_nlp.patches.versions"):
        assert patches.apply_one("nltk_download") is False
    assert nltk.download is own
    assert "'nltk_download' was written for nltk 3.10.4, but nltk 3.9.1 is installed" in caplog.text


def test_green_nlp_allennlp_commands_apply_it_before_allennlp_runs(monkeypatch):
    import allennlp.commands
    import allennlp.common.util

    from green_nlp import cli

    monkeypatch.setattr(nltk, "download", lambda *args, **kwargs: False)
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    monkeypatch.setattr(allennlp.common.util, "install_sigterm_handler", lambda: None)
    seen = []
    monkeypatch.setattr(allennlp.commands, "main", lambda prog: seen.append(getattr(nltk.download, "_green_quiet", 0)))
    cli.run_allennlp(["evaluate", "--help"])
    assert seen == [True]
