"""Lemmas as edit scripts that turn a word form into its lemma (as UDPipe does).

A lemmatizer that predicts the lemma string itself cannot lemmatize a word it never saw; one that
predicts *how* to change the form can: `walked -> walk` and `jumped -> jump` share the script
"strip one suffix of 2 characters". So a script is the class a tagging head predicts, and it is
applied to the form at prediction time.

A script is a JSON list `[casing, strip_prefix, add_prefix, strip_suffix, add_suffix]` over the
lower-cased form, found from the longest common substring of the lower-cased form and lemma,
followed by a casing step: `"f"` applies the same edit to the form as written (keeps its case),
`"l"` lower-cases, `"t"` title-cases and `"u"` upper-cases the result. Where form and lemma share
nothing (`was -> be`) the script is the whole lemma, `["=", lemma]`. A script that does not fit
a form (it strips all the characters the form has, or more) gives the form back unchanged.

Torch-free: the ONNX runtime applies the scripts the exported graph picks.
"""

import functools
import json
from difflib import SequenceMatcher
from typing import Any, Optional

# the casing steps, in the order tried when a script is made (the first that gives the lemma wins)
CASINGS = ("f", "l", "t", "u")
WHOLE_LEMMA = "="


def _common_substring(a: str, b: str) -> tuple[int, int, int]:
    """(start in a, start in b, length) of the longest common substring."""
    match = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return match.a, match.b, match.size


def _recase(text: str, casing: str) -> str:
    if casing == "l":
        return text.lower()
    if casing == "u":
        return text.upper()
    if casing == "t":
        return text[:1].upper() + text[1:].lower()
    return text


def _edit(form: str, strip_prefix: int, add_prefix: str, strip_suffix: int, add_suffix: str) -> str:
    return add_prefix + form[strip_prefix : len(form) - strip_suffix] + add_suffix


def make_rule(form: str, lemma: str) -> str:
    """The edit script that turns `form` into `lemma` (see the module docstring)."""
    lower_form, lower_lemma = form.lower(), lemma.lower()
    start_form, start_lemma, size = _common_substring(lower_form, lower_lemma)
    if size > 0 and len(lower_form) == len(form):  # lower() may change the length (e.g. 'İ'), then the
        edit = (  # indices of the lower-cased form would not fit the form as written
            start_form,
            lower_lemma[:start_lemma],
            len(lower_form) - start_form - size,
            lower_lemma[start_lemma + size :],
        )
        for casing in CASINGS:
            source = form if casing == "f" else lower_form
            if _recase(_edit(source, *edit), casing) == lemma:
                return json.dumps([casing, *edit], ensure_ascii=False, separators=(",", ":"))
    return json.dumps([WHOLE_LEMMA, lemma], ensure_ascii=False, separators=(",", ":"))


@functools.lru_cache(maxsize=4096)
def _parsed(rule: str) -> Optional[tuple[Any, ...]]:
    """A rule label's parts, None where it is not a rule; cached: a model has a few hundred labels
    and the runtime applies one per word (parsing its JSON each time cost 5 % of a parse)."""
    try:
        parts = json.loads(rule)
    except ValueError:
        return None
    if not isinstance(parts, list) or not parts:
        return None
    if parts[0] == WHOLE_LEMMA and len(parts) == 2 and isinstance(parts[1], str):
        return tuple(parts)
    if len(parts) != 5 or parts[0] not in CASINGS:
        return None
    return tuple(parts)


def is_whole_lemma(rule: str) -> bool:
    """Whether `rule` is a whole-lemma script (`["=", lemma]`, for irregular words such as `was -> be`)."""
    parts = _parsed(rule)
    return parts is not None and parts[0] == WHOLE_LEMMA


def apply_rule(form: str, rule: str) -> str:
    """The lemma that `rule` (from `make_rule`) gives for `form`; the form itself where the rule
    does not fit it or is not a rule at all (e.g. a padding or unknown label)."""
    parts = _parsed(rule)
    if parts is None:
        return form
    if parts[0] == WHOLE_LEMMA:
        return parts[1]
    casing, strip_prefix, add_prefix, strip_suffix, add_suffix = parts
    if strip_prefix + strip_suffix >= len(form):  # a made script always keeps a common part
        return form
    if casing != "f" and len(form.lower()) != len(form):
        return form
    source = form if casing == "f" else form.lower()
    return _recase(_edit(source, strip_prefix, add_prefix, strip_suffix, add_suffix), casing)


def predicted_lemma(form: str, rule: str) -> str:
    """The lemma a predicted script gives `form` (`apply_rule`), kept from two edits no treebank
    word needs where the script is a guess: upper-casing a word written in lower case (the head's
    title-case scripts, for names, gave `naive -> Naive` and `separator -> Separator`), and adding
    characters to a word without letters, or letters to it (an emoji got `'`, as a quote's `'s`).
    Those words keep their form's case, or their form. Not in `apply_rule`, which must make every
    training lemma again from its script; the lemma dictionary still gives names their capitals."""
    lemma = apply_rule(form, rule)
    if lemma == form:
        return lemma
    if not any(character.isalpha() for character in form):
        if len(lemma) > len(form) or any(character.isalpha() for character in lemma):
            return form
    elif form == form.lower() and lemma != lemma.lower():
        return lemma.lower()
    return lemma


def predicted_lemmas(forms: list[str], rules: list[str]) -> list[str]:
    """`predicted_lemma` for each word of a sentence."""
    return [predicted_lemma(form, rule) for form, rule in zip(forms, rules)]


def make_rules(forms: list[str], lemmas: list[str]) -> list[str]:
    """One script per word of a sentence."""
    return [make_rule(form, lemma) for form, lemma in zip(forms, lemmas)]
