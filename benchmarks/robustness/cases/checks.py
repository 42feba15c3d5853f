"""Checks of a documented recovery: is the result what the docs promise?"""

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.robustness.cases.case import Outcome
from benchmarks.robustness.cases.loaders import parse_words
from benchmarks.robustness.cases.scrub import scrub


def is_tree(heads: list[int]) -> bool:
    """One root, every word reaches it."""
    if sum(h == 0 for h in heads) != 1:
        return False
    for start in range(1, len(heads) + 1):
        seen, node = set(), start
        while node != 0:
            if node in seen:
                return False
            seen.add(node)
            node = heads[node - 1]
    return True


def crlf_check(instances: list) -> Outcome:
    words = [t.text for t in instances[0].fields["words"].tokens]
    labels = instances[0].fields["head_tags"].labels
    ok = words == ["The", "cat"] and labels == ["det", "root"]
    return ok, f"read like LF: words {words}, relations {labels}"


def thousand_token_check(instances: list) -> Outcome:
    n = len(instances[0].fields["words"].tokens)
    if n != 1000:
        return False, f"read {n} words instead of 1000"
    sentence = instances[0].fields["metadata"].metadata["sentence"]
    parsed = parse_words(sentence.words, sentence.upos)
    heads = parsed["sentences"][0]["heads"]
    return is_tree(heads) and len(heads) == 1000, f"read in full and parsed into a {len(heads)}-word tree"


def classifier_empty_lines_check(path: Path) -> Callable[[list], Outcome]:
    """The documented rule (blank lines and lines with empty text are skipped): count them here
    from the raw file, independently of the reader."""

    def check(instances: list) -> Outcome:
        lines = path.read_text(encoding="utf-8").splitlines()[1:]  # header
        expected = [line.split("\t", 1)[1].split() for line in lines if "\t" in line and line.split("\t", 1)[1].strip()]
        got = [[t.text for t in instance.fields["tokens"].tokens] for instance in instances]
        ok = got == expected and all(got)
        return ok, f"{len(got)} examples read, {len(lines) - len(got)} blank or empty-text lines skipped"

    return check


def unseen_relations_check(metrics: dict[str, float]) -> Outcome:
    ok = metrics["LAS"] == 0.0 and metrics["UAS"] > 0.5
    return ok, f"evaluated: UAS {metrics['UAS']:.2f}, LAS {metrics['LAS']:.2f} (every relation unseen)"


def long_sentence_check(limit: int) -> Callable[[dict[str, Any]], Outcome]:
    def check(record: dict[str, Any]) -> Outcome:
        ok = "error" in record and f"max_sentence_length={limit}" in record["error"]
        return ok, f"error record instead of a parse: {record.get('error', record)!s:.120}"

    return check


def words_check(expected: list[list[str]]) -> Callable[[list], Outcome]:
    def check(instances: list) -> Outcome:
        got = [[t.text for t in instance.fields[_text_field(instance)].tokens] for instance in instances]
        return got == expected, f"read: {got}"

    return check


def _text_field(instance: Any) -> str:
    return "words" if "words" in instance.fields else "tokens"


def examples_check(expected: list[tuple[str, str]]) -> Callable[[list], Outcome]:
    def check(examples: list) -> Outcome:
        got = [(e.label, e.text) for e in examples]
        return got == expected, f"read: {got}"

    return check


def unseen_gold_check(key: str, bound: float) -> Callable[[dict[str, float]], Outcome]:
    """Evaluated (no KeyError), the loss a number, and the unseen gold labels counted wrong: `key`
    at most `bound`, the share of gold items the model can get right."""

    def check(metrics: dict[str, float]) -> Outcome:
        ok = metrics[key] <= bound + 1e-9 and math.isfinite(metrics["loss"])
        return ok, f"evaluated: {key} {metrics[key]:.3f} (at most {bound:.3f}), loss {metrics['loss']:.3f}"

    return check


def multiword_output_check(result: tuple[str, list[str]]) -> Outcome:
    text, _ = result
    ids = [line.split("\t")[0] for line in text.splitlines() if line and not line.startswith("#")]
    ok = ids == ["1", "2-3", "2", "3", "4", "5"]
    return ok, f"predicted; CoNLL-U IDs written {ids} (multiword token kept, empty node 4.1 dropped)"


def skip_malformed_check(path: Path) -> Callable[[tuple[str, list[str]]], Outcome]:
    def check(result: tuple[str, list[str]]) -> Outcome:
        text, malformed = result
        words = [
            record_words
            for record in map(json.loads, text.splitlines())
            for record_words in [s["words"] for s in record["sentences"]]
        ]
        ok = words == [["Good"], ["Also", "good"]] and len(malformed) == 1 and malformed[0].startswith(f"{path}:4:")
        extra = {"kept_lines": [1, 7], "error_lines": [4], "errors": {"4": scrub(malformed[0]) if malformed else ""}}
        return ok, f"sentences at lines 1 and 7 predicted {words}; reported: {scrub('; '.join(malformed))}", extra

    return check


def no_leftover_check(wanted: str) -> Callable[[tuple[str, int]], Outcome]:
    def check(result: tuple[str, int]) -> Outcome:
        message, left = result
        return wanted in message and left == 0, f"refused ({scrub(message)[:100]}); {left} temporary folders left"

    return check
