"""Tokens per second of `green-nlp parse` / `parse_many` as the sort window grows: the sentences of
`sort_window` lines are sorted by length before they are cut into batches of 32, against batches of
32 lines in file order (a window of 32, the baseline), in one run on one thread.

    nice -n 5 python -m benchmarks.runtime.sort_window                  # the shipped en-ewt-parser
    python -m benchmarks.runtime.sort_window --model FOLDER --fp32-model FOLDER

Input: the raw text of UD English-EWT test (one sentence per line, 2,077 lines) under
$GREEN_NLP_DATA, else the fixture sentences repeated. Each row is the fastest of `--repeats`
round-robin passes after a warm-up. Answers: the int8 graph's quantization scales are computed per
batch, so its trees may differ with the batches; the rows report how many sentences get the same
heads and relations as the baseline. An fp32 folder (`--fp32-model`) must give identical trees in
every row. Results: benchmarks/results/runtime_sort_window.{json,md}.
"""

import argparse
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Optional

from benchmarks.common import REPO, RESULTS, write_results
from green_nlp.runtime import load
from green_nlp.runtime.length_batches import DEFAULT_SORT_WINDOW
from green_nlp.settings import data_path

WINDOWS = (32, 128, 256, 512, 1024)
BATCH_SIZE = 32


def input_lines() -> tuple[list[str], str]:
    test = data_path("ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    if test.exists():
        prefix = "# text = "
        lines = test.read_text(encoding="utf-8").splitlines()
        texts = [line[len(prefix) :] for line in lines if line.startswith(prefix)]
        return texts, f"UD English-EWT test, raw text, {len(texts)} lines"
    fixture = REPO / "fixtures" / "raw_text.txt"
    texts = [line for line in fixture.read_text(encoding="utf-8").splitlines() if line.strip()] * 50
    return texts, f"fixture sentences x 50 ({len(texts)} lines; $GREEN_NLP_DATA has no EWT)"


def trees(docs: list[Any]) -> list[tuple[tuple[int, ...], tuple[str, ...]]]:
    return [(tuple(s.heads), tuple(s.deprels)) for doc in docs for s in doc.sentences]


def one_pass(nlp: Any, lines: list[str], window: int) -> tuple[float, float, list[Any]]:
    """(seconds for the whole file, seconds to the first document, the documents)."""
    start = time.perf_counter()
    stream = nlp.parse_many(lines, batch_size=BATCH_SIZE, sort_window=window)
    first = next(stream)
    first_s = time.perf_counter() - start
    docs = [first, *stream]
    return time.perf_counter() - start, first_s, docs


def measure(model: str, lines: list[str], windows: list[int], repeats: int) -> dict[str, dict[str, Any]]:
    nlp = load(model, threads=1)
    one_pass(nlp, lines[:256], 256)  # warm-up: onnxruntime plans its first shapes
    best: dict[int, tuple[float, float]] = {}
    answers: dict[int, list[Any]] = {}
    for _ in range(repeats):  # round robin, so a busy spell does not fall on one row
        for window in windows:
            seconds, first_s, docs = one_pass(nlp, lines, window)
            if window not in best or seconds < best[window][0]:
                best[window] = (seconds, first_s)
            answers[window] = docs
    tokens = sum(len(s.words) for doc in answers[windows[0]] for s in doc.sentences)
    sentences = sum(len(doc.sentences) for doc in answers[windows[0]])
    baseline_trees = trees(answers[windows[0]])
    rows: dict[str, dict[str, Any]] = {}
    for window in windows:
        seconds, first_s = best[window]
        same = sum(a == b for a, b in zip(trees(answers[window]), baseline_trees))
        rows[f"window {window}" + (" (file order)" if window == BATCH_SIZE else "")] = {
            "sort_window": window,
            "tokens_per_s": tokens / seconds,
            "sentences_per_s": sentences / seconds,
            "first_output_ms": first_s * 1000,
            "vs_file_order": best[windows[0]][0] / seconds,
            "same_trees_as_file_order": same / len(baseline_trees),
        }
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="en-ewt-parser", help="a shipped model's name or an exported folder")
    parser.add_argument("--fp32-model", help="an exported folder with model.onnx: its trees must not change")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    lines, source = input_lines()
    windows = [*WINDOWS, len(lines)] if len(lines) > WINDOWS[-1] else list(WINDOWS)
    load_before = [round(x, 2) for x in os.getloadavg()]
    rows = {f"{args.model} int8 {name}": row for name, row in measure(args.model, lines, windows, args.repeats).items()}
    fp32_identical: Optional[bool] = None
    if args.fp32_model:
        fp32_rows = measure(args.fp32_model, lines, windows, args.repeats)
        fp32_identical = all(row["same_trees_as_file_order"] == 1.0 for row in fp32_rows.values())
        rows.update({f"fp32 {name}": row for name, row in fp32_rows.items()})
    load_after = [round(x, 2) for x in os.getloadavg()]
    speedup = rows[f"{args.model} int8 window {DEFAULT_SORT_WINDOW}"]["vs_file_order"]
    results = {
        "model": args.model,
        "input": source,
        "batch_size": BATCH_SIZE,
        "repeats": args.repeats,
        "rows": rows,
        "fp32_trees_identical_in_every_window": fp32_identical,
        "default_window_speedup": speedup,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    note = (
        f"{source}; batches of {BATCH_SIZE} sentences, one thread (onnxruntime intra-op 1), fastest of "
        f"{args.repeats} round-robin passes after a warm-up, tokens per wall-clock second including spaCy's "
        f"segmentation and tree decoding. vs_file_order: the window-{BATCH_SIZE} row's time over this row's "
        f"(the default window, {DEFAULT_SORT_WINDOW}, is {speedup:.2f}x). first_output_ms: time to the first "
        "document, which grows with the window. same_trees_as_file_order: share of sentences with the same "
        "heads and relations as the file-order row (int8: per-batch quantization scales)"
        + ("" if fp32_identical is None else f"; fp32 trees identical in every window: {fp32_identical}")
        + f". Load average {load_before} before, {load_after} after; {results['date']}."
    )
    columns = ["tokens_per_s", "sentences_per_s", "vs_file_order", "first_output_ms", "same_trees_as_file_order"]
    write_results(args.out_dir, "runtime_sort_window", results, rows, columns, note, first_column="model, window")


if __name__ == "__main__":
    main()
