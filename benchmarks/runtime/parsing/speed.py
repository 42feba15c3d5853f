"""Speed: round-robin timed passes over every path and setting, the fastest kept, and tokens/s
ratios between rows of the same run."""

import time
from typing import Any, Optional

from benchmarks.runtime.parsing.gold import chunks
from benchmarks.runtime.parsing.settings import FORMS, SETTINGS, WARMUP_SENTENCES, ParseBatch, Parsed


def timed_pass(parse: ParseBatch, batches: list[list[list[str]]]) -> dict[str, Any]:
    """One pass: answers, wall and CPU seconds, and each batch's wall seconds."""
    answers: list[Parsed] = []
    latencies = []
    start_cpu, start = time.process_time(), time.perf_counter()
    for batch in batches:
        before = time.perf_counter()
        answers.extend(parse(batch))
        latencies.append(time.perf_counter() - before)
    return {
        "wall_s": time.perf_counter() - start,
        "cpu_s": time.process_time() - start_cpu,
        "latencies": latencies,
        "answers": answers,
    }


def measure_speed(
    paths: dict[str, dict[int, ParseBatch]],
    words: list[list[str]],
    repeats: int,
    batch1_sentences: Optional[int] = None,
) -> tuple[dict[str, dict[str, Any]], dict[str, list[Parsed]]]:
    """Rows "form setting" (tokens/s, sentences/s, latency at batch 1) from the fastest of `repeats`
    round-robin passes, and each row's answers (parsed sentences in input order). Settings: "b1"
    (on the first `batch1_sentences` sentences only, when given), "b32" (consecutive batches in file
    order, as `allennlp predict` and `green-nlp parse` batch a file) and "b32-sorted" (all sentences
    sorted by length first, as AllenNLP's bucket sampler batches, so a batch holds similar lengths)."""
    runs: dict[str, tuple[ParseBatch, list[list[list[str]]], list[int]]] = {}
    for setting, (size, by_length) in SETTINGS.items():
        count = min(len(words), batch1_sentences) if size == 1 and batch1_sentences else len(words)
        order = sorted(range(count), key=lambda i: len(words[i])) if by_length else list(range(count))
        batches = [[words[i] for i in chunk] for chunk in chunks(order, size)]
        for form, by_size in paths.items():
            runs[f"{form} {setting}"] = (by_size[size], batches, order)
    for parse, batches, _ in runs.values():  # warm-up: first calls allocate, onnxruntime plans
        warm = [sentence for batch in batches for sentence in batch][:WARMUP_SENTENCES]
        timed_pass(parse, [list(batch) for batch in chunks(warm, len(batches[0]))])
    passes: dict[str, list[dict[str, Any]]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, (parse, batches, _) in runs.items():
            passes[name].append(timed_pass(parse, batches))
    rows, answers = {}, {}
    for name, (_, batches, order) in runs.items():
        best = min(passes[name], key=lambda p: p["wall_s"])
        sentences = len(order)
        tokens = sum(len(words) for batch in batches for words in batch)
        row: dict[str, Any] = {
            "form": name.split()[0],
            "setting": name.split()[1],
            "batch_size": len(batches[0]),
            "sentences": sentences,
            "tokens": tokens,
            "tokens_per_s": tokens / best["wall_s"],
            "sentences_per_s": sentences / best["wall_s"],
            "tokens_per_cpu_s": tokens / best["cpu_s"],
            "pass_wall_s": [round(p["wall_s"], 3) for p in passes[name]],
        }
        if len(batches[0]) == 1:
            ms = sorted(1000 * t for t in best["latencies"])
            row["latency_p50_ms"] = percentile(ms, 50)
            row["latency_p95_ms"] = percentile(ms, 95)
        rows[name] = row
        restored: list[Any] = [None] * sentences
        for position, index in enumerate(order):
            restored[index] = best["answers"][position]
        answers[name] = restored
    return rows, answers


def percentile(sorted_values: list[float], q: float) -> float:
    """Linear-interpolated percentile of already sorted values (numpy's default method)."""
    position = (len(sorted_values) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def speed_ratios(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Tokens/s ratios between rows of this run only: ONNX int8 over torch int8, and every path
    over the AllenNLP predictor, at each batch size (each with the two figures it divides)."""
    ratios: dict[str, dict[str, Any]] = {}

    def add(name: str, numerator: str, denominator: str) -> None:
        if numerator in rows and denominator in rows and rows[numerator]["sentences"] == rows[denominator]["sentences"]:
            a, b = rows[numerator]["tokens_per_s"], rows[denominator]["tokens_per_s"]
            ratios[name] = {
                "numerator": numerator,
                "denominator": denominator,
                "numerator_tokens_per_s": a,
                "denominator_tokens_per_s": b,
                "ratio": a / b,
            }

    for setting in SETTINGS:
        add(f"onnx_int8_vs_torch_int8 {setting}", f"onnx_int8 {setting}", f"torch_int8 {setting}")
        for form in FORMS[1:]:
            add(f"{form}_vs_allennlp_predictor {setting}", f"{form} {setting}", f"allennlp_predictor {setting}")
    return ratios
