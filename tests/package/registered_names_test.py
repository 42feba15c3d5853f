"""Every registered name starts with `green_`, and every first name still loads what it loaded.

The fixture archives were written before the rename (their configs name `ld_net_tagger`,
`conllu_dependencies`, ...), so loading them checks the aliases the way a user's archive would.
"""

import json
import tarfile

import pytest
from allennlp.common.registrable import Registrable
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model
from allennlp.models.archival import load_archive
from allennlp.training.callbacks.callback import TrainerCallback

from green_nlp.names import OLD_NAMES, current_name
from tests.conftest import FIXTURES

BASES = (Model, DatasetReader, Vocabulary, TrainerCallback)
ARCHIVES = sorted(FIXTURES.glob("archives/*.tar.gz")) + sorted(FIXTURES.glob("ldnet/archives/*.tar.gz"))


def _green_registrations():
    """(base, name, class) for every name registered to a green_nlp class, any Registrable base."""
    for base, names in Registrable._registry.items():
        for name, (cls, _) in names.items():
            if cls.__module__.startswith("green_nlp."):
                yield base, name, cls


def test_green_classes_are_registered_under_green_names_or_their_first_names():
    registrations = list(_green_registrations())
    assert len(registrations) > 20  # readers, models, predictors, callbacks, optimizers, subcommands...
    unprefixed = [
        (base.__name__, name)
        for base, name, _ in registrations
        if not name.startswith(("green_", "green-")) and name not in OLD_NAMES
    ]
    assert unprefixed == []


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_a_first_name_resolves_to_the_class_of_its_new_name(old):
    new = current_name(old)
    bases = [base for base in BASES if new in base.list_available()]
    assert len(bases) == 1, f"{new} is registered under {bases}"
    base = bases[0]
    assert old in base.list_available()
    assert base.resolve_class_name(old) == base.resolve_class_name(new)  # same class, same constructor


@pytest.mark.parametrize("archive", ARCHIVES, ids=lambda path: path.name)
def test_every_fixture_archive_still_loads(archive):
    loaded = load_archive(str(archive))
    model_type = loaded.config.as_dict()["model"]["type"]
    assert type(loaded.model) is Model.resolve_class_name(current_name(model_type))[0]


def test_the_fixture_archives_exercise_the_first_names():
    """At least the tagger and the parser archives name their components by first names."""
    types = set()
    for archive in ARCHIVES:
        with tarfile.open(archive, "r:gz") as tar:
            config = json.load(tar.extractfile("config.json"))
        types |= {config["model"]["type"], config["dataset_reader"]["type"]}
    assert {"ld_net_tagger", "conllu_dependencies"} <= types
