"""The Python API (`green_nlp.runtime.load(...)` and its models' methods), called as a user's program
calls it, in this process: bad words and texts, bad settings, and one bad text among good ones."""

import functools
from collections.abc import Callable, Sequence
from typing import Any, Optional

from benchmarks.robustness.cases.case import API, SHIPPED_PARSER, Case, Outcome, Wanted
from benchmarks.robustness.cases.models import runtime_model, tagger_folder

SENTIMENT = "en-sst2-sentiment"
INPUT_ERRORS: tuple[type, ...] = (ValueError, TypeError)  # what a caller catches for a bad argument


@functools.cache
def parser() -> Any:
    from green_nlp.runtime import load

    return load(SHIPPED_PARSER, threads=1)


@functools.cache
def classifier() -> Any:
    from green_nlp.runtime import load

    return load(SENTIMENT, threads=1)


@functools.cache
def tagger() -> Any:
    return runtime_model(str(tagger_folder()))


def _refused(
    name: str,
    call: str,
    run: Callable[[], Any],
    *wanted: Wanted,
    what: str = "",
    types: tuple[type, ...] = INPUT_ERRORS,
) -> Case:
    """A call that must raise an error of `types` (ValueError/TypeError) whose message holds `wanted`."""
    return Case(
        name,
        call,
        what or f"ValueError or TypeError naming {' and '.join(map(str, wanted))}",
        run,
        error=list(wanted),
        error_types=types,
        entry=API,
    )


def _words(doc: Any) -> list[list[str]]:
    return [list(sentence.words) for sentence in doc.sentences]


def bom_check(result: tuple[Any, Any]) -> Outcome:
    """A leading BOM is dropped: the first word and every relation as without it."""
    with_bom, without = result
    same = with_bom.to_json() == without.to_json()
    return same, f"parsed as without the BOM: {_words(with_bom)[0][:3]}" + ("" if same else " (differs)")


def failed_alone_check(
    texts: Sequence[Any], bad: int, *wanted: str
) -> Callable[[tuple[list[Any], Optional[str]]], Outcome]:
    """parse_many over good texts and one bad text: the bad one fails alone, in its place (a result
    whose `.error` names it: `texts[i]`, 0-based, or `text i+1`) or as an exception naming it after
    the texts before it came back; every other text is parsed as alone. A window emptied around
    it, or an error that does not say which text, is not handled."""
    names = (f"texts[{bad}]", f"text {bad + 1}", f"item {bad + 1}", f"line {bad + 1}")

    def check(result: tuple[list[Any], Optional[str]]) -> Outcome:
        docs, raised = result
        problems = []
        errors = {i: str(doc.error) for i, doc in enumerate(docs) if getattr(doc, "error", None)}
        error = errors.get(bad, raised)
        if raised is None and len(docs) != len(texts):
            problems.append(f"{len(docs)} results for {len(texts)} texts")
        if raised is not None and len(docs) < bad:
            problems.append(f"only {len(docs)} texts came back before text {bad + 1}'s error (its window emptied)")
        if set(errors) - {bad}:
            problems.append(f"other texts failed: {sorted(set(errors) - {bad})}")
        for i, doc in enumerate(docs):
            if i != bad and i not in errors and doc.to_json() != parser().parse(texts[i]).to_json():
                problems.append(f"text {i + 1} parsed unlike alone")
        if error is None or not any(name in error for name in names):
            problems.append(f"the error does not name text {bad + 1}: {error!r:.160}")
        missing = [part for part in wanted if error is None or part not in error]
        if missing:
            problems.append(f"the error lacks {missing}")
        what = f"{len(docs) - len(errors)} of {len(texts)} texts parsed; error: {error!s:.160}"
        return not problems, what + ("; " + "; ".join(problems) if problems else "")

    return check


def _parse_many(texts: Sequence[Any]) -> Callable[[], tuple[list[Any], Optional[str]]]:
    def run() -> tuple[list[Any], Optional[str]]:
        docs: list[Any] = []
        try:
            for doc in parser().parse_many(texts, batch_size=4, sort_window=8):
                docs.append(doc)
        except (ValueError, TypeError) as error:
            return docs, str(error)
        return docs, None

    return run


NONE_AMONG_GOOD = ["The cat sat.", None, "Birds sing."]
LONG_AMONG_GOOD = ["The cat sat.", "A dog barked.", " ".join(["word"] * 1500), "Birds sing.", "It rained."]


def flagged_check(result: Any) -> Outcome:
    return bool(result.no_known_features), f"classified and flagged no_known_features={result.no_known_features}"


def api_cases() -> list[Case]:
    p, c, t = parser, classifier, tagger
    long_text = " ".join(["word"] * 1001)
    return [
        # parse_tokens: the checks of the CLI's {"words": ...} lines (issue 44)
        _refused(
            "parse_tokens: an empty word",
            "parser.parse_tokens",
            lambda: p().parse_tokens(["a", ""]),
            "empty",
            ("item 2", "word 2", "index 1", "position 2", "words[1]"),
        ),
        _refused(
            "parse_tokens: a word holding a tab", "parser.parse_tokens", lambda: p().parse_tokens(["a", "b\tc"]), "tab"
        ),
        _refused(
            "parse_tokens: a word holding a newline",
            "parser.parse_tokens",
            lambda: p().parse_tokens(["a\nb", "c"]),
            ("newline", "line break", "\\n"),
        ),
        _refused(
            "parse_tokens: a word holding NUL", "parser.parse_tokens", lambda: p().parse_tokens(["a", "b\x00"]), "NUL"
        ),
        _refused(
            "parse_tokens: a string, not a list of words",
            "parser.parse_tokens",
            lambda: p().parse_tokens("The cat"),
            "words",
            ("string", "str"),
        ),
        _refused(
            "parse_tokens: words that are not strings",
            "parser.parse_tokens",
            lambda: p().parse_tokens(["a", 3]),
            ("number", "int", "not a string", "str"),
        ),
        _refused(
            "parse_tokens: upos of the wrong length",
            "parser.parse_tokens",
            lambda: p().parse_tokens(["The", "cat"], ["DET"]),
            "upos",
            "1",
            "2",
        ),
        _refused(
            "parse_tokens: no words",
            "parser.parse_tokens",
            lambda: p().parse_tokens([]),
            ("no tokens", "empty", "no words"),
        ),
        _refused(
            "parse_tokens: 1,001 words",
            "parser.parse_tokens",
            lambda: p().parse_tokens(["word"] * 1001),
            "max_sentence_length=1000",
        ),
        # texts
        _refused(
            "parse: a lone surrogate",
            "parser.parse",
            lambda: p().parse("bad \ud800 text"),
            "surrogate",
            ("position 5", "character 5", "column 5", "position 4", "index 4"),
        ),
        Case(
            "parse: a leading byte-order mark",
            "parser.parse",
            "the BOM dropped; parsed as the same text without it",
            lambda: (p().parse("\ufeffThe cat sat on the mat."), p().parse("The cat sat on the mat.")),
            check=bom_check,
            entry=API,
        ),
        _refused("parse: a NUL in the text", "parser.parse", lambda: p().parse("The \x00 cat"), "NUL"),
        _refused("parse: empty text", "parser.parse", lambda: p().parse(""), ("empty", "no words", "no tokens")),
        _refused(
            "parse: whitespace-only text",
            "parser.parse",
            lambda: p().parse(" \t "),
            ("empty", "no words", "no tokens", "whitespace"),
        ),
        _refused("parse: a number, not text", "parser.parse", lambda: p().parse(42), ("str", "string")),
        _refused(
            "parse: a 1,001-word sentence", "parser.parse", lambda: p().parse(long_text), "max_sentence_length=1000"
        ),
        Case(
            "parse_many: one 1,500-word text among good ones",
            "parser.parse_many (batch_size 4, sort_window 8)",
            "the texts before it parsed as alone; only that text fails, its error naming it (text 3)",
            _parse_many(LONG_AMONG_GOOD),
            check=failed_alone_check(LONG_AMONG_GOOD, 2, "max_sentence_length"),
            entry=API,
        ),
        _refused(
            "parse_many: batch_size 0",
            "parser.parse_many",
            lambda: list(p().parse_many(["a"], batch_size=0)),
            "batch_size",
        ),
        Case(
            "parse_many: a None among texts",
            "parser.parse_many",
            "only that text fails, its error naming it (texts[1]) and its type",
            _parse_many(NONE_AMONG_GOOD),
            check=failed_alone_check(NONE_AMONG_GOOD, 1, "must be a string"),
            entry=API,
        ),
        # tagger
        _refused("tag: empty text", "tagger.tag", lambda: t().tag(""), ("empty", "no words", "no tokens")),
        _refused("tag: a NUL in the text", "tagger.tag", lambda: t().tag("EU \x00 rejects"), "NUL"),
        _refused(
            "tag: a lone surrogate",
            "tagger.tag",
            lambda: t().tag("EU \ud800"),
            "surrogate",
            ("position 3", "character 4", "column 4", "position 4", "index 3"),
        ),
        _refused(
            "tag_tokens: a word holding a tab", "tagger.tag_tokens", lambda: t().tag_tokens(["EU", "a\tb"]), "tab"
        ),
        _refused("tag: bytes, not text", "tagger.tag", lambda: t().tag(b"EU rejects"), ("str", "string")),
        # classifier
        _refused(
            "classify: empty text",
            "classifier.classify",
            lambda: c().classify(""),
            ("empty", "no words", "blank"),
            what="an error, not 'negative' counted as predicted",
        ),
        _refused("classify: a NUL in the text", "classifier.classify", lambda: c().classify("a fine \x00 film"), "NUL"),
        _refused(
            "classify: a lone surrogate",
            "classifier.classify",
            lambda: c().classify("fine \ud800"),
            "surrogate",
            ("position 5", "character 6", "column 6", "position 6", "index 5"),
        ),
        _refused("classify: None", "classifier.classify", lambda: c().classify(None), ("str", "string")),
        Case(
            "classify: no known n-gram",
            "classifier.classify",
            "classified, flagged no_known_features",
            lambda: c().classify("zzqx vvkj"),
            check=flagged_check,
            entry=API,
        ),
        _refused(
            "classify: no known n-gram, no_known_features='error'",
            "classifier.classify",
            lambda: c().classify("zzqx vvkj", no_known_features="error"),
            "known",
        ),
        _refused(
            "classify: a misspelt no_known_features",
            "classifier.classify",
            lambda: c().classify("fine", no_known_features="eror"),
            "no_known_features",
            "eror",
        ),
        _refused(
            "classify_many: batch_size 0",
            "classifier.classify_many",
            lambda: list(c().classify_many(["fine"], batch_size=0)),
            "batch_size",
        ),
        # load
        _refused(
            "load: an unknown model name",
            "green_nlp.runtime.load",
            lambda: _load("en-no-such-model"),
            "en-no-such-model",
            types=(*INPUT_ERRORS, FileNotFoundError),
        ),
        _refused(
            "load: an unknown precision", "green_nlp.runtime.load", lambda: _load(SENTIMENT, precision="int4"), "int4"
        ),
        _refused("load: threads=0", "green_nlp.runtime.load", lambda: _load(SENTIMENT, threads=0), "threads"),
    ]


def _load(name: str, **options: Any) -> Any:
    from green_nlp.runtime import load

    return load(name, **options)


def api_case_table() -> dict[str, Case]:
    return {case.name: case for case in api_cases()}
