"""The report: the aims met or not, runtime.md from runtime.json, and merging a run of some parts
into the saved results."""

import json
import os
from pathlib import Path
from typing import Any

from benchmarks.common import markdown_table
from benchmarks.runtime.parsing.settings import AIMS, FORMS, PARTS, SETTINGS


def aims(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The issue's aims, each with the figure of this run and whether it is met."""
    found: dict[str, dict[str, Any]] = {}

    def add(name: str, value: float, aim: float, at_most: bool) -> None:
        found[name] = {
            "aim": f"{'<=' if at_most else '>='} {aim}",
            "value": value,
            "met": value <= aim if at_most else value >= aim,
        }

    cold = results.get("cold_start") or {}
    for suffix in ("", " (runtime venv)"):
        name = f"green_nlp_parse_int8{suffix}"
        if name in cold:
            add(
                f"green-nlp parse cold start, s{suffix}",
                cold[name]["first_line_s"],
                AIMS["green_nlp_cold_start_s"],
                True,
            )
            add(
                f"cold start speed-up over allennlp predict{suffix}",
                results["cold_start_ratios"][f"allennlp_predict_vs_{name}"]["ratio"],
                AIMS["cold_start_speedup"],
                False,
            )
        name = f"green_nlp_classify{suffix}"
        if name in cold and "allennlp_predict_classifier" in cold:
            add(
                f"green-nlp classify cold start, s{suffix}",
                cold[name]["first_line_s"],
                AIMS["green_nlp_cold_start_s"],
                True,
            )
            add(
                f"classify cold start speed-up over allennlp predict{suffix}",
                results["cold_start_ratios"][f"allennlp_predict_classifier_vs_{name}"]["ratio"],
                AIMS["cold_start_speedup"],
                False,
            )
    for setting in SETTINGS:
        ratio = results.get("speed_ratios", {}).get(f"onnx_int8_vs_torch_int8 {setting}")
        if ratio:
            add(f"ONNX int8 / torch int8 tokens/s, {setting}", ratio["ratio"], AIMS["onnx_int8_vs_torch_int8"], False)
    return found


def _yes_no(row: dict[str, Any]) -> dict[str, Any]:
    return {key: ("yes" if value else "no") if isinstance(value, bool) else value for key, value in row.items()}


def render(results: dict[str, Any]) -> str:
    """The Markdown report: speed, accuracy and memory per path, cold start, sizes, aims, notes."""
    parts = [f"# Runtime benchmark: {results['archive']} on UD English-EWT test\n"]
    speed = results.get("speed")
    if speed:
        ratios = results["speed_ratios"]
        rows = {}
        for name, row in speed.items():
            form, setting = name.split()
            vs = ratios.get(f"{form}_vs_allennlp_predictor {setting}")
            rows[name] = {**row, "vs_predictor": vs["ratio"] if vs else (1.0 if form == "allennlp_predictor" else None)}
        parts.append(
            markdown_table(
                rows,
                [
                    "sentences",
                    "tokens_per_s",
                    "sentences_per_s",
                    "tokens_per_cpu_s",
                    "latency_p50_ms",
                    "latency_p95_ms",
                    "vs_predictor",
                ],
                "path",
            )
        )
    per_form = {}
    for form in FORMS:
        row: dict[str, Any] = dict(results.get("accuracy", {}).get(form, {}))
        memory = results.get("memory", {}).get(form)
        if memory:
            row["peak_rss_mb"] = memory["max_rss_mb"]
            row["loaded_rss_mb"] = memory.get("loaded_peak_rss_mb")
            row["torch_imported"] = memory["torch_imported"]
        if row:
            per_form[form] = _yes_no(row)
    if per_form:
        parts.append(
            markdown_table(
                per_form,
                [
                    "uas",
                    "las",
                    "upos_accuracy",
                    "b1_answers_same",
                    "b32-sorted_answers_same",
                    "same_arcs_as_predictor",
                    "loaded_rss_mb",
                    "peak_rss_mb",
                    "torch_imported",
                ],
                "path",
            )
        )
    cold = results.get("cold_start")
    if cold:
        parts.append(
            markdown_table(cold, ["first_line_s", "exit_s", "max_rss_mb", "first_line"], "command (cold start)")
        )
    sizes = results.get("sizes")
    if sizes:
        parts.append(markdown_table({"size": sizes}, list(sizes), "on disk"))
    lines = [
        f"- {name}: {aim['value']:.2f} (aim {aim['aim']}): {'met' if aim['met'] else 'NOT met'}"
        for name, aim in results.get("aims", {}).items()
    ]
    agreement = results.get("int8_agreement")
    if agreement:
        lines.append(
            f"- int8 graph vs fp32 graph (`int8_agreement`, {agreement['words']:,} words): same head "
            f"{agreement['heads']:.2%}, same head and relation {agreement['heads_and_labels']:.2%}"
            + (f", same UPOS {agreement['upos']:.2%}" if "upos" in agreement else "")
            + f", sentences identical {agreement['sentences']:.2%}"
        )
    parts.append("\n".join(lines) + ("\n" if lines else ""))
    parts.append(results["note"] + "\n")
    return "\n".join(parts)


def note(results: dict[str, Any]) -> str:
    load = results["load_average"]
    text = (
        f"{results['test_sentences']:,} test sentences ({results['test_tokens']:,} words, gold tokenization, "
        f"no gold UPOS) unless a row says fewer; one thread everywhere (torch.set_num_threads(1), onnxruntime "
        f"intra_op_num_threads=1, OMP_NUM_THREADS=1); {results['hardware']}; load average (1, 5, 15 min) "
        + "/".join(f"{x:.2f}" for x in load["start"])
        + " at start, "
        + "/".join(f"{x:.2f}" for x in load["end"])
        + f" at end, on {os.cpu_count()} logical CPUs shared with other work; {results['date']}."
    )
    for part, run_info in (results.get("part_runs") or {}).items():
        if run_info.get("date") != results["date"]:
            text += (
                f" {part} was measured in an earlier run ({run_info.get('date')}, load average "
                + "/".join(f"{x:.2f}" for x in run_info["load_average"]["start"])
                + " at its start)."
            )
    if results.get("speed"):
        text += (
            f" Speed: fastest of {results['repeats']} round-robin passes after a warm-up, wall clock "
            "(tokens_per_cpu_s: per CPU second of this process); every pass turns words into heads, relations "
            "and UPOS. b1: one sentence per call (predict_json; latency per sentence from that pass). b32: "
            "consecutive batches of 32 in file order, as allennlp predict and green-nlp parse batch a file "
            "(AllenNLP pads in input order, the runtime sorts inside the batch: the same padding). b32-sorted: "
            "all sentences sorted by length first, so each batch holds similar lengths. vs_predictor: tokens/s "
            "over the AllenNLP predictor's in the same setting, in this run."
        )
        stats = results.get("test_data")
        if stats:
            text += (
                " A batch pads every word to the batch's longest word in characters (the character CNN) and "
                f"every sentence to its longest sentence: the test set's longest word has "
                f"{stats['longest_word_chars']} characters (URLs, e-mail addresses), its longest sentence "
                f"{stats['longest_sentence_words']} words, so b32 in file order pays for padding that b1 and "
                "b32-sorted mostly avoid."
            )
        if results.get("batch1_sentences"):
            text += f" b1 ran on the first {results['batch1_sentences']:,} sentences only (time)."
    if results.get("accuracy"):
        text += (
            " Accuracy: each path's b32 answers, UAS/LAS over all words (punctuation included, full relations), "
            "accuracy of the predicted UPOS; *_answers_same: the other settings gave the same trees and tags."
        )
    if results.get("memory"):
        text += (
            " Peak RSS: a process of its own per path that loads it and parses the sentences at batch 32, "
            "in file order (loaded_rss_mb: its peak once loaded, before parsing; torch_int8's includes the fp32 "
            "model quantize_for_cpu copies from)."
        )
    if results.get("cold_start"):
        text += (
            f" Cold start: process start to the first stdout line, median of {results['cold_start_repeats']} "
            "after one untimed run (warm file cache; it also gives max_rss_mb), the first EWT test sentence as "
            "raw text. allennlp predict runs with `--silent --output-file /dev/stdout` (with --silent and no "
            "output file it exits after loading, before predicting); green-nlp parse on the exported folder with "
            "--threads 1. In the training venv spaCy's thinc imports torch when it is installed, so green-nlp "
            "parse on raw text loads torch there (import_spacy prints whether it did)."
        )
    if any("(runtime venv)" in name for name in results.get("cold_start") or {}) or "runtime_venv_gb" in (
        results.get("sizes") or {}
    ):
        text += (
            " Runtime venv: the venv given with --runtime-venv, green_nlp installed there by `pip install .` "
            "(numpy, onnxruntime, spaCy, conllu, ufal.chu-liu-edmonds, tqdm; no torch, no allennlp)."
        )
    return text


PART_KEYS = {
    "cold_start": ("cold_start", "cold_start_ratios"),
    "speed": ("speed", "speed_ratios", "accuracy", "int8_agreement"),
    "memory": ("memory",),
    "sizes": ("sizes",),
}


def merged(saved: dict[str, Any], fresh: dict[str, Any]) -> dict[str, Any]:
    """The saved results with the parts measured now replaced by this run's; each part keeps the date
    and load average of the run that measured it (`part_runs`)."""
    saved_runs = saved.get("part_runs") or {
        part: {"date": saved.get("date"), "load_average": saved.get("load_average")} for part in saved.get("parts", [])
    }
    combined = dict(saved)
    for part in fresh["parts"]:
        for key in PART_KEYS[part]:
            if key in fresh:
                combined[key] = fresh[key]
        saved_runs[part] = {"date": fresh["date"], "load_average": fresh["load_average"]}
    combined["date"], combined["load_average"] = fresh["date"], fresh["load_average"]
    combined["parts"] = sorted(set(saved.get("parts", [])) | set(fresh["parts"]), key=PARTS.index)
    combined["part_runs"] = saved_runs
    return combined


def write_report(out: Path, results: dict[str, Any]) -> None:
    """Save runtime.json (every figure) and runtime.md, with the note and aims made afresh; print the Markdown."""
    results["aims"] = aims(results)
    results["note"] = note(results)
    out.mkdir(parents=True, exist_ok=True)
    (out / "runtime.json").write_text(json.dumps(results, indent=2) + "\n")
    markdown = render(results)
    (out / "runtime.md").write_text(markdown)
    print(markdown)
