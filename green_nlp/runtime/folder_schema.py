"""The keys each family's runtime class reads from `green_model.json`, checked before it is built.

A folder edited by hand or written by another tool may lack a key; the runtime classes index
`meta[...]` directly, so without this check the user saw a bare `KeyError: 'labels'`. Only keys
every exported folder of the family has are required here; optional ones keep their defaults.
"""

import json
from typing import Any

from green_nlp.line_stream import LINE_BREAKS

# the `outputs` keys a split parser's lemma head graph gives (`export.lemma_head_split`), not its main graph
LEMMA_HEAD_OUTPUTS = ("lemma_rules", "lemma_rules_top", "lemma_rules_top_logits")

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
        ("analyzer.token_pattern", str),
        ("analyzer.ngram_range", list),
        ("analyzer.lowercase", bool),
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
_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", int: "an integer", bool: "true or false"}
# the one n-gram analyzer the classifier runtime repeats (`export.dan.analyzer_settings` writes it)
WORD_ANALYZER = "sklearn_count_vectorizer_words"
# optional keys the runtime reads, checked where present (null included): a null "tokenizer" was an
# AttributeError traceback, and a string "false" for a switch was read as true
OPTIONAL_KEYS: dict[str, tuple[tuple[str, type], ...]] = {
    "parser": (
        ("tokenizer", dict),
        ("tokenizer.language", str),
        ("label_scorer", dict),
        ("label_scorer.bias_x", bool),
        ("label_scorer.bias_y", bool),
    ),
    "tagger": (("tokenizer", dict), ("tokenizer.language", str)),
}


# label lists whose entries become output columns: a tab or line break in one breaks every CoNLL-U
# and JSON-lines reader downstream (family -> dotted keys; optional ones are checked where present)
LABEL_KEYS: dict[str, tuple[str, ...]] = {
    "parser": ("labels.deprel", "labels.upos", "labels.lemma_rules", "labels.feats", "labels.xpos"),
    "classifier": ("labels",),
    "tagger": ("labels",),
}
# a tab and every character that breaks a line: either would cut an output row
_ROW_BREAKERS = "\t" + LINE_BREAKS
# the widest character padding a folder may ask for (its widest convolution: a few characters)
MAX_MIN_PADDING = 64
# optional top-level whole numbers, at least 1
POSITIVE_KEYS: dict[str, tuple[str, ...]] = {"parser": ("max_sentence_length",), "tagger": ("max_sentence_length",)}
# dotted key of a vocabulary or label list -> its number of entries when the graph was exported
LENGTHS_KEY = "exported_lengths"


def _lookup(meta: dict[str, Any], dotted: str) -> tuple[bool, Any]:
    """(whether the key is there, null or not; its value)."""
    node: Any = meta
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node


def _bad_optional(meta: dict[str, Any], family: str) -> str:
    """An optional key of the wrong type: each of `OPTIONAL_KEYS`, each input's `lowercase`."""
    given = meta.get("inputs")
    inputs: dict[str, Any] = given if isinstance(given, dict) and family in ("parser", "tagger") else {}
    keys = [*OPTIONAL_KEYS.get(family, ()), *((f"inputs.{name}.lowercase", bool) for name in inputs)]
    for dotted, kind in keys:
        present, value = _lookup(meta, dotted)
        if present and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            return f'key "{dotted}" must be {_TYPE_NAMES[kind]}, got {json_name(value)}'
    return ""


def _bad_card(meta: dict[str, Any]) -> str:
    """A model card that `green-nlp models` and the server's model list could not show (a string
    card was an AttributeError traceback there): an object or null, with text or null for its
    title and license, an object of metrics and a list of data lines."""
    card = meta.get("card")
    if card is None:
        return ""
    if not isinstance(card, dict):
        return f'key "card" must be an object (the model card) or null, got {json_name(card)}'
    for key, kinds in (("title", (str, type(None))), ("license", (str, type(None))), ("metrics", dict), ("data", list)):
        if key in card and not isinstance(card[key], kinds):
            return f'key "card.{key}" must be {_CARD_TYPES[key]}, got {json_name(card[key])}'
    return ""


_CARD_TYPES = {"title": "a string or null", "license": "a string or null", "metrics": "an object", "data": "a list"}


def json_name(value: Any) -> str:
    """How a value reads in JSON terms: `null`, `"false"` (a string), `5`."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        return type(value).__name__
    return text if len(text) <= 40 else type(value).__name__


def _value(meta: dict[str, Any], dotted: str) -> Any:
    value: Any = meta
    for part in dotted.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def bad_value(meta: dict[str, Any]) -> str:
    """What is wrong with a value the runtime writes or counts with, or "": a label that is not a
    one-line string, a `max_sentence_length` that is not a positive whole number."""
    family = str(meta.get("family"))
    for dotted in LABEL_KEYS.get(family, ()):
        labels = _value(meta, dotted)
        if labels is None:
            continue
        if not isinstance(labels, list) or not labels:
            return f'key "{dotted}" must be a non-empty list of labels'
        for i, label in enumerate(labels):
            if not isinstance(label, str) or any(c in label for c in _ROW_BREAKERS):
                return f'key "{dotted}" entry {i} ({label!r}) must be a string without tabs or line breaks'
        twice = next((label for i, label in enumerate(labels) if label in labels[:i]), None)
        if twice is not None:  # its classes' scores would be written under one name, one of them lost
            return f'key "{dotted}" lists {twice!r} twice: each class needs a label of its own'
    for key in POSITIVE_KEYS.get(family, ()):  # top-level keys, optional: present means a number
        if key not in meta:
            continue
        number = meta[key]
        if type(number) is not int or number < 1:
            return f'key "{key}" must be a whole number of at least 1, got {number!r}'
    return _bad_index(meta, family) or _bad_analyzer(meta, family) or _bad_length(meta)


def _bad_analyzer(meta: dict[str, Any], family: str) -> str:
    """A classifier's analyzer the runtime would not repeat as exported: another analyzer type, an
    n-gram range that is not two whole numbers (its order is checked by the extractor)."""
    if family != "classifier":
        return ""
    kind = _value(meta, "analyzer.type")
    if kind is not None and kind != WORD_ANALYZER:  # another analyzer's n-grams would be read as these
        return f'key "analyzer.type" is {json_name(kind)}; this runtime repeats only "{WORD_ANALYZER}"'
    span = _value(meta, "analyzer.ngram_range")
    if span is not None and (len(span) != 2 or any(type(n) is not int for n in span)):
        return f'key "analyzer.ngram_range" must be two whole numbers [low, high], got {json_name(span)}'
    return ""


def _repeated(tokens: list[Any]) -> str:
    """What is wrong with a vocabulary's entries ("" when each is a distinct string)."""
    seen: set[str] = set()
    for i, token in enumerate(tokens):
        if not isinstance(token, str):
            return f"entry {i} ({json_name(token)}) must be a string"
        if token in seen:  # its first id would never be given: an edit of a list that must not be edited
            return f"lists {token!r} twice: each id needs a token of its own"
        seen.add(token)
    return ""


def sized_lists(meta: dict[str, Any]) -> list[str]:
    """The dotted keys of the lists whose length the graph fixed: each input's vocabulary (its ids
    index an embedding table) and each label list (one label per class the graph scores)."""
    family = str(meta.get("family"))
    given = meta.get("inputs")
    inputs: dict[str, Any] = given if isinstance(given, dict) else {}
    keys = [f"inputs.{name}.vocabulary" for name, spec in inputs.items() if isinstance(spec, dict)]
    keys += LABEL_KEYS.get(family, ())
    return [key for key in keys if isinstance(_value(meta, key), list)]


def exported_lengths(meta: dict[str, Any]) -> dict[str, int]:
    """What the export records under `LENGTHS_KEY`: the length of each of `sized_lists`."""
    return {key: len(_value(meta, key)) for key in sized_lists(meta)}


def _bad_length(meta: dict[str, Any]) -> str:
    """A vocabulary or label list edited to another length than the graph was exported with: a
    longer vocabulary fed ids past the graph's embedding table (onnxruntime's raw Gather error on
    every line), a shorter one silently turned known words into unknown ones. Folders exported
    before the lengths were recorded have no `LENGTHS_KEY` and are not checked."""
    recorded = meta.get(LENGTHS_KEY)
    if recorded is None:
        return ""
    if not isinstance(recorded, dict):
        return f'key "{LENGTHS_KEY}" must be an object (dotted key of a list -> its length at export)'
    for key, length in recorded.items():
        if type(length) is not int or length < 0:
            return f'key "{LENGTHS_KEY}.{key}" must be a whole number, got {length!r}'
        found = _value(meta, key)
        if not isinstance(found, list):
            return f'key "{key}" is gone or not a list, but the graph was exported with {length} entries in it'
        if len(found) != length:
            return (
                f'key "{key}" has {len(found)} entries, but the graph was exported with {length} '
                f"(recorded in {LENGTHS_KEY}): restore the list as exported"
            )
    return ""


def _bad_index(meta: dict[str, Any], family: str) -> str:
    """An id or width the runtime indexes with that its own vocabulary or reader could not have
    written: an OOV id outside its vocabulary, a negative or absurd character padding, a negative
    first n-gram id (each silently changed every prediction)."""
    given = meta.get("inputs")
    inputs: dict[str, Any] = given if isinstance(given, dict) else {}
    for name in ("words", "characters", "upos"):
        spec = inputs.get(name) if family in ("parser", "tagger") else None
        if not isinstance(spec, dict):
            continue
        vocabulary = spec.get("vocabulary") or []
        problem = _repeated(vocabulary)
        if problem:
            return f'key "inputs.{name}.vocabulary" {problem}'
        size = len(vocabulary)
        oov = spec.get("oov_index")
        if oov is not None and (type(oov) is not int or not 0 <= oov < size):
            return f'key "inputs.{name}.oov_index" must be an id of its vocabulary (0-{size - 1}) or null, got {oov!r}'
        width = spec.get("min_padding_length") or 0
        if type(width) is not int or not 0 <= width <= MAX_MIN_PADDING:
            return f'key "inputs.{name}.min_padding_length" must be a whole number 0-{MAX_MIN_PADDING}, got {width!r}'
    encoder = _value(meta, "inputs.characters.encoder") if family == "parser" else None
    if encoder is not None:  # a split folder (`export.character_split`)
        if not isinstance(encoder, dict) or not isinstance(encoder.get("files"), dict):
            return 'key "inputs.characters.encoder" must be an object with "files" (precision -> file name)'
        for dotted in (
            "inputs.characters.encoder.output",
            "inputs.characters.vectors_input",
            "inputs.characters.index_input",
        ):
            if not isinstance(_value(meta, dotted), str):
                return f'key "{dotted}" must be a string: a folder with a character encoder graph needs it'
    head = _value(meta, "lemma_head") if family == "parser" else None
    if head is not None:  # a split folder (`export.lemma_head_split`)
        if (
            not isinstance(head, dict)
            or not isinstance(head.get("files"), dict)
            or not isinstance(head.get("states"), str)
        ):
            return 'key "lemma_head" must be an object with "files" (precision -> file name) and "states" (a string)'
        if not isinstance(_value(meta, "outputs.lemma_rules"), str):
            return 'key "outputs.lemma_rules" must be a string: a folder with a lemma head graph needs it'
    first = _value(meta, "ngrams.first_id") if family == "classifier" else None
    if first is not None and (type(first) is not int or first < 1):
        return f'key "ngrams.first_id" must be a whole number of at least 1 (0 is padding), got {first!r}'
    return _bad_rows(meta) if family == "classifier" else ""


def _bad_rows(meta: dict[str, Any]) -> str:
    """N-gram ids that would not fit the graph's table as exported: first_id + count must be its
    rows ("ngrams.rows", recorded since the export wrote it; older folders are not checked). An
    edited first_id shifted every n-gram to another's row and changed every probability silently."""
    rows, first, count = (_value(meta, f"ngrams.{key}") for key in ("rows", "first_id", "count"))
    if rows is None:
        return ""
    if type(rows) is not int or rows < 1:
        return f'key "ngrams.rows" must be a whole number of at least 1, got {json_name(rows)}'
    if first + count != rows:
        return (
            f'keys "ngrams.first_id" ({first}) and "ngrams.count" ({count}) do not fit the graph\'s n-gram '
            f'table of {rows} rows ("ngrams.rows"): they must add up to it; restore them as exported'
        )
    return ""
    return ""


def missing_key(meta: dict[str, Any]) -> str:
    """What is wrong with `meta`'s keys for its family, or "" when nothing is (an unknown family is
    left to the loader, which names the families it knows)."""
    family = meta.get("family")
    if not isinstance(family, str):
        return f'has no "family" string (got {family!r})'
    if not isinstance(meta.get("files", {}), dict):
        return f'key "files" must be an object (precision -> file name), got {type(meta["files"]).__name__}'
    for dotted, kind in REQUIRED_KEYS.get(family, ()):
        value = _value(meta, dotted)
        if value is None:
            return f'has no "{dotted}" key, which a {family} folder needs'
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f'key "{dotted}" must be {_TYPE_NAMES[kind]}, got {type(value).__name__}'
    return _bad_card(meta) or _bad_optional(meta, family) or bad_value(meta)


def graph_mismatch(meta: dict[str, Any], graph_inputs: set[str], graph_outputs: set[str]) -> str:
    """An input or output name in the metadata that the loaded ONNX graph does not have, or "":
    checked at load, so that a folder whose metadata and graph disagree is refused once instead of
    failing on every line."""
    wanted_inputs: list[tuple[str, Any]] = []
    for key, spec in (meta.get("inputs") or {}).items():
        if isinstance(spec, dict):
            # a split folder's characters enter its encoder graph, their vectors this one
            parts = ("vectors_input", "index_input") if spec.get("encoder") else ("input", "index_input")
            wanted_inputs += [(f"inputs.{key}.{part}", spec[part]) for part in parts if part in spec]
        else:
            wanted_inputs.append((f"inputs.{key}", spec))
    for dotted, name in wanted_inputs:
        if name not in graph_inputs:
            known = ", ".join(sorted(graph_inputs))
            return f'key "{dotted}" names input {name!r}, which the graph does not have (it has {known})'
    head = meta.get("lemma_head") if meta.get("family") == "parser" else None
    elsewhere = set(LEMMA_HEAD_OUTPUTS) if isinstance(head, dict) else set()  # checked on the head's graph
    for key, name in (meta.get("outputs") or {}).items():
        if name and key not in elsewhere and name not in graph_outputs:  # an absent head is null / false
            return f'key "outputs.{key}" names output {name!r}, which the graph does not have'
    if isinstance(head, dict) and head.get("states") not in graph_outputs:
        return f'key "lemma_head.states" names output {head.get("states")!r}, which the graph does not have'
    return ""
