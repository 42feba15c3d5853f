"""The registered names that changed, and the first names they had.

Every name green_nlp registers with AllenNLP starts with `green_` (subcommands with `green-`). A few
components were first registered without that prefix (or with `ld_net` for LD-Net); those first
names stay registered as aliases of the same class, because configs and model archives written
before the rename name them in their `type` fields, and exported runtime folders carry them as
`model_type`. This module imports nothing heavy, so the runtime can read it too.
"""

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T", bound=type)

CONLLU_DEPENDENCIES_READER = "green_conllu_dependencies"
NGRAM_TEXT_READER = "green_ngram_text"
NGRAM_VOCABULARY = "green_ngram_count_vectorizer"
NGRAM_DAN = "green_ngram_dan"
LDNET_TAGGER = "green_ldnet_tagger"
PARSER_DISTILLATION = "green_parser_distillation"

# first name -> current name; both resolve to the same class (tests/package/registered_names_test.py)
OLD_NAMES: dict[str, str] = {
    "conllu_dependencies": CONLLU_DEPENDENCIES_READER,
    "ngram_text": NGRAM_TEXT_READER,
    "ngram_count_vectorizer": NGRAM_VOCABULARY,
    "ngram_dan": NGRAM_DAN,
    "ld_net_tagger": LDNET_TAGGER,
    "green_distillation": PARSER_DISTILLATION,
}


def current_name(name: str) -> str:
    """The current registered name for `name` (itself when it is not a first name)."""
    return OLD_NAMES.get(name, name)


def old_names(name: str) -> list[str]:
    """The first names still registered as aliases of the current `name`."""
    return [old for old, new in OLD_NAMES.items() if new == name]


def register_with_old_names(base: Any, name: str, **options: Any) -> Callable[[T], T]:
    """`@base.register(name, **options)` that also registers `name`'s first names as aliases.

    `base` is the AllenNLP `Registrable` (Model, DatasetReader, ...), passed in so that this module
    need not import allennlp.
    """

    def register(cls: T) -> T:
        for registered in (name, *old_names(name)):
            base.register(registered, **options)(cls)
        return cls

    return register
