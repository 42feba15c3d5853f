"""Bad lines through every entry point that reads input line by line (or a stream of documents).

Used by `benchmarks.robustness.bad_input`. Each run feeds a file of tests/bad_inputs/ to one real entry
point - `allennlp predict` (AllenNLP's own `_PredictManager`, as the command builds it),
`allennlp green-predict` (its `BulkPredictor`), the runtime CLI (`green-nlp parse|classify`, its
`run_runtime`) - and says, for every non-blank physical line, whether it was kept (with its output)
or reported (with the reason). The check wants exactly the documented bad lines reported, each for
the documented reason, and every other line kept, in order, with the output the same model gives
that line on its own.
"""

import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from benchmarks.common import REPO

BAD = REPO / "tests" / "bad_inputs"
RAW_TEXT = BAD / "raw_text_mixed.txt"
PARSER_JSON = BAD / "parser_json_wrong_types.jsonl"

# line -> what its error must say (the files' README names each line's fault)
RAW_TEXT_BAD = {
    3: "not valid UTF-8",
    5: "NUL byte",
    6: "field 'sentence' must be a string",
    7: "broken JSON",
    10: "field 'text' holds a NUL",
}
RAW_TEXT_BAD_PARSER = {**RAW_TEXT_BAD, 11: "max_sentence_length=1000"}
PARSER_JSON_BAD = {
    2: "field 'words' must be a list of strings, got a string",
    3: "item 2 is a number",
    4: "field 'sentence' must be a string, got null",
    5: "item 2 is empty or only whitespace",
    6: "holds a tab",
    7: "field 'upos' must be a list of strings, got a string",
}

CLASSIFIER_JSON = BAD / "classifier_json_edge_cases.jsonl"
CLASSIFIER_JSON_BAD = {
    2: "lone surrogate",
    3: "nested too deeply",
    4: "broken JSON",
    7: "'sentence'",
    8: "field 'sentence' must be a string",
}

Outcome = tuple[bool, str, dict[str, Any]]


@dataclass
class LineRun:
    """What an entry point wrote: outputs in order (error records included where the entry point
    writes them among the outputs) and, for those that report errors apart, `errors` (line -> why)."""

    outputs: list[dict[str, Any]]
    errors: Optional[dict[int, str]] = None
    texts: dict[int, str] = field(default_factory=dict)  # line -> decoded text, for the references


def non_blank_lines(path: Path) -> dict[int, str]:
    """Physical line number -> text (BOM dropped; undecodable bytes replaced) of every non-blank line."""
    lines = {}
    for number, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
        text = raw.decode("utf-8", errors="replace").lstrip("\ufeff")
        if text.strip():
            lines[number] = text
    return lines


def assign_lines(path: Path, run: LineRun) -> tuple[dict[int, dict[str, Any]], dict[int, str], list[str]]:
    """(line -> output, line -> error, problems): which physical line each output answers.

    Error records name their line; the other outputs belong, in order, to the non-blank lines that
    are not reported. Where error records come among the outputs, each must sit at its line's place.
    """
    lines = list(non_blank_lines(path))
    problems: list[str] = []
    kept: dict[int, dict[str, Any]] = {}
    if run.errors is not None:  # errors reported apart: outputs are the good lines only
        errors = dict(run.errors)
        good = [number for number in lines if number not in errors]
        if len(good) != len(run.outputs):
            problems.append(f"{len(run.outputs)} outputs for {len(good)} unreported lines")
        kept = dict(zip(good, run.outputs))
        return kept, errors, problems
    errors = {}
    if len(run.outputs) != len(lines):
        problems.append(f"{len(run.outputs)} records for {len(lines)} non-blank lines")
    for number, record in zip(lines, run.outputs):
        if "error" in record:
            if record.get("line") != number:
                problems.append(f"error record for line {record.get('line')} at line {number}'s place")
            errors[number] = str(record["error"])
        else:
            kept[number] = record
    return kept, errors, problems


def close(a: Any, b: Any) -> bool:
    """Equal, with floats equal to 1e-5 (a batch and a single prediction may round differently)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, abs_tol=1e-5)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    return a == b


def line_check(
    path: Path, bad: dict[int, str], reference: Optional[Callable[[str], Any]]
) -> Callable[[LineRun], Outcome]:
    """The check of one per-line run (see the module docstring)."""

    def check(run: LineRun) -> Outcome:
        kept, errors, problems = assign_lines(path, run)
        if set(errors) != set(bad):
            problems.append(f"errors at lines {sorted(errors)}, expected {sorted(bad)}")
        problems += [
            f"line {n}: {errors[n]!r} lacks {why!r}" for n, why in bad.items() if n in errors and why not in errors[n]
        ]
        texts = non_blank_lines(path)
        if reference is not None:
            problems += [
                f"line {n}: output differs from that line predicted alone"
                for n, output in kept.items()
                if not close(output, reference(texts[n]))
            ]
        extra = {
            "kept_lines": sorted(kept),
            "error_lines": sorted(errors),
            "errors": {str(n): errors[n][:160] for n in sorted(errors)},
        }
        what = f"kept lines {sorted(kept)} in order; reported lines {sorted(errors)}"
        return not problems, what + ("; " + "; ".join(problems) if problems else ""), extra

    return check


# -------------------------------------------------------------------------- the entry points
def allennlp_predict(predictor: Any, path: Path, folder: Path, batch_size: int = 4) -> LineRun:
    """`allennlp predict ARCHIVE FILE --output-file OUT --silent` (green_nlp's patch applied, as
    `import green_nlp` applies it): AllenNLP's `_PredictManager` with the command's arguments."""
    from allennlp.commands.predict import _PredictManager

    out = folder / f"predict_{path.stem}_{type(predictor).__name__}.jsonl"
    _PredictManager(predictor, str(path), str(out), batch_size, False, False).run()
    return LineRun([json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()])


def green_predict(predictor: Any, path: Path, batch_size: int = 4) -> LineRun:
    """`allennlp green-predict ARCHIVE FILE --errors-file E`: the command's `BulkPredictor`."""
    from green_nlp.commands.green_predict import BulkPredictor

    output, errors = io.StringIO(), io.StringIO()
    BulkPredictor(predictor, batch_size).run(path, output, progress=False, errors=errors)  # type: ignore[arg-type]
    records = [json.loads(line) for line in errors.getvalue().splitlines()]
    return LineRun(
        good_answers([json.loads(line) for line in output.getvalue().splitlines()]),
        {record["line"]: record["error"] for record in records},
    )


def runtime_cli(command: str, model: str, path: Path, folder: Path) -> LineRun:
    """`green-nlp COMMAND MODEL FILE --format json -o OUT --errors-file E` (its `run_runtime`)."""
    from green_nlp.cli import run_runtime

    out, errors = folder / f"runtime_{command}.jsonl", folder / f"runtime_{command}.errors.jsonl"
    status = run_runtime(
        [
            command,
            model,
            str(path),
            "--format",
            "json",
            "-o",
            str(out),
            "--errors-file",
            str(errors),
            "--no-progress",
            "--batch-size",
            "4",
        ]
    )
    if status != 0:
        raise RuntimeError(f"green-nlp {command} exited with {status}")
    records = [json.loads(line) for line in errors.read_text(encoding="utf-8").splitlines()]
    return LineRun(
        good_answers([json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]),
        {record["line"]: record["error"] for record in records},
    )


def good_answers(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """green-predict and green-nlp write one record per line, numbered (`"line"`), failed and blank
    lines as error records in place; the errors file reports the failed ones apart, so the check
    reads the good lines' answers, without their number."""
    return [{k: v for k, v in record.items() if k != "line"} for record in records if "error" not in record]


def predictor_reference(predictor: Any) -> Callable[[str], Any]:
    """A line's output from the predictor on its own: `load_line`, `predict_json` (JSON round trip,
    as the entry points write it)."""
    return lambda text: json.loads(json.dumps(predictor.predict_json(predictor.load_line(text))))


def runtime_reference(nlp: Any, command: str) -> Callable[[str], Any]:
    from green_nlp.line_stream import json_or_text

    many = {"parse": "parse_many", "classify": "classify_many"}[command]

    def reference(text: str) -> Any:
        segmenter = getattr(nlp, "segmenter", None)
        if segmenter is not None:
            segmenter.split_sentences = False  # as green-nlp parse reads a line: one sentence
        try:
            result = next(iter(getattr(nlp, many)([json_or_text(text)])))
        finally:
            if segmenter is not None:
                segmenter.split_sentences = True
        return json.loads(json.dumps(result.to_json(), ensure_ascii=False))

    return reference


# ----------------------------------------------------------------------------- spaCy pipes
def spacy_pipe(nlp: Any, texts: list[str], batch_size: int) -> list[Any]:
    """`nlp.pipe(texts)` into a list (the docs of one batch come out together)."""
    return list(nlp.pipe(texts, batch_size=batch_size))


def spacy_check(
    texts: list[str], bad: dict[int, str], annotation: Callable[[Any], Any], alone: Callable[[str], Any]
) -> Callable[[list[Any]], Outcome]:
    """Every doc comes back in order; the bad ones (index -> reason fragment) flagged in
    `doc._.green_error` and unannotated, the others annotated as when run alone."""

    def check(docs: list[Any]) -> Outcome:
        problems = []
        if [doc.text for doc in docs] != texts:
            problems.append("docs lost or reordered")
        flagged = {i: doc._.green_error for i, doc in enumerate(docs) if doc._.green_error}
        if set(flagged) != set(bad):
            problems.append(f"flagged docs {sorted(flagged)}, expected {sorted(bad)}")
        problems += [
            f"doc {i}: {flagged[i]!r} lacks {why!r}" for i, why in bad.items() if i in flagged and why not in flagged[i]
        ]
        for i, doc in enumerate(docs):
            if i not in bad and not close(annotation(doc), annotation(alone(texts[i]))):
                problems.append(f"doc {i} annotated unlike on its own")
        kept = [i for i in range(len(docs)) if i not in flagged]
        extra = {
            "kept_docs": kept,
            "flagged_docs": sorted(flagged),
            "errors": {str(i): flagged[i][:160] for i in sorted(flagged)},
        }
        what = f"kept docs {kept} annotated; flagged docs {sorted(flagged)}"
        return not problems, what + ("; " + "; ".join(problems) if problems else ""), extra

    return check
