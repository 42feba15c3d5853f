"""The keys each family's runtime class reads from `green_model.json`, checked before it is built.

A folder edited by hand or written by another tool may lack a key; the runtime classes index
`meta[...]` directly, so without this check the user saw a bare `KeyError: 'labels'`. Only keys
every exported folder of the family has are required here; optional ones keep their defaults.
"""

from typing import Any

# family -> (dotted key, the JSON type it must have)
REQUIRED_KEYS: dict[str, tuple[tuple[str, type], ...]] = {
    "parser": (
        ("inputs", dict),
        ("inputs.words", dict),
        ("inputs.words.vocabulary", list),
        ("inputs.words.input", str),
        ("outputs", dict),
        ("outputs.arc_scores", str),
        ("outputs.greedy_labels", str),
        ("outputs.label_dep", str),
        ("outputs.label_head", str),
        ("labels", dict),
        ("labels.deprel", list),
    ),
    "classifier": (
        ("labels", list),
        ("ngrams", dict),
        ("ngrams.file", str),
        ("ngrams.count", int),
        ("ngrams.first_id", int),
        ("analyzer", dict),
        ("inputs", dict),
        ("inputs.ngram_ids", str),
        ("outputs", dict),
        ("outputs.logits", str),
        ("outputs.probs", str),
    ),
    "tagger": (
        ("inputs", dict),
        ("inputs.words", dict),
        ("inputs.words.vocabulary", list),
        ("inputs.words.input", str),
        ("outputs", dict),
        ("outputs.logits", str),
        ("labels", list),
        ("crf", dict),
    ),
}
_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", int: "an integer"}


def missing_key(meta: dict[str, Any]) -> str:
    """What is wrong with `meta`'s keys for its family, or "" when nothing is (an unknown family is
    left to the loader, which names the families it knows)."""
    family = meta.get("family")
    if not isinstance(family, str):
        return f'has no "family" string (got {family!r})'
    if not isinstance(meta.get("files", {}), dict):
        return f'key "files" must be an object (precision -> file name), got {type(meta["files"]).__name__}'
    for dotted, kind in REQUIRED_KEYS.get(family, ()):
        value: Any = meta
        for part in dotted.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is None:
            return f'has no "{dotted}" key, which a {family} folder needs'
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f'key "{dotted}" must be {_TYPE_NAMES[kind]}, got {type(value).__name__}'
    return ""
