"""Accuracy, size and one-thread CPU speed of the full parser, distilled students (D-x), equal-size
students trained without a teacher (B-x), their int8-quantized variants, and peers, per treebank.

Every model of a treebank is timed in the same process, interleaved (repeat 1: all models,
repeat 2: all models, ...), at each batch size, and the median run is kept, so ratios against the
full teacher hold on a noisy machine. GPU figures are added when a GPU is present; `--devices gpu`
times on the GPU only and merges its figures into the rows an earlier CPU run wrote (and back).

Runs are expected at RUNS/parser/<treebank>/{teacher,d20,...,b80}/ (model.tar.gz or best.th), and
the allennlp-models peer for EWT at RUNS/ewt_allennlp_models/.

    python -m benchmarks.parser.distillation [--runs runs] [--batch-sizes 32 256 4096] [--repeats 3]

Writes benchmarks/results/parser_distillation.json, then the table and plots
(`benchmarks.reports.parser_distillation`).
"""

import argparse
import json
import time
from pathlib import Path
from typing import Any

import torch
from allennlp.common.plugins import import_plugins
from allennlp.models.archival import load_archive

from benchmarks.common import earlier_treebanks, hardware_description
from benchmarks.parser.parsing import (
    attachment_scores,
    ensure_archive,
    has_weights,
    make_batches,
    predict,
    read_for_model,
    to_device,
    training_info,
)
from benchmarks.parser.peers import supar_peer  # supar itself is imported only when its run exists
from benchmarks.reports.parser_distillation import write_report
from green_nlp.dataset_readers import read_conllu
from green_nlp.nn.parameters import count_trainable_parameters
from green_nlp.nn.quantization import quantize_for_cpu
from green_nlp.settings import data_path

TREEBANKS = {
    "UD_English-EWT": ("ud_ewt", "en_ewt-ud-test.conllu"),
    "UD_Tamil-TTB": ("ud_tamil_ttb", "ta_ttb-ud-test.conllu"),
    "UD_Wolof-WTB": ("ud_wolof_wtb", "wo_wtb-ud-test.conllu"),
    "UD_Chinese-GSD_v1.3": ("ud_chinese_gsd_v1_3", "zh-ud-test.conllu"),
}
VARIANTS = ["full"] + [f"{kind}-{fraction}" for kind in "DB" for fraction in (20, 40, 60, 80)]
QUANTIZED = ["full", "D-20", "D-40", "D-60", "D-80"]
PEERS = {"UD_English-EWT": {"allennlp-models biaffine_parser": "ewt_allennlp_models"}}
SUPAR_PEERS = {"UD_English-EWT": "supar_ewt"}  # SuPar 1.1.4, trained by benchmarks.parser.peers.supar_peer


def folder_of(variant: str) -> str:
    return "teacher" if variant == "full" else variant.replace("-", "").lower()


def load_models(runs: Path, treebank: str, quantize: bool = True) -> dict[str, dict[str, Any]]:
    name, _ = TREEBANKS[treebank]
    found: dict[str, dict[str, Any]] = {}
    candidates: list[tuple[str, Path, bool]] = [(v, runs / "parser" / name / folder_of(v), False) for v in VARIANTS]
    candidates += [(peer, runs / folder, True) for peer, folder in PEERS.get(treebank, {}).items()]
    for variant, run_dir, is_peer in candidates:
        if not has_weights(run_dir):
            continue
        archive_path, from_best = ensure_archive(run_dir)
        archive = load_archive(str(archive_path))
        found[variant] = {
            "archive": archive,
            "model": archive.model.eval(),
            "peer": is_peer,
            "info": {**training_info(run_dir), "archived_from_best_th": from_best},
        }
    supar_run = runs / SUPAR_PEERS.get(treebank, "-") / "model"
    if supar_run.exists():
        found["SuPar biaffine-dep"] = {
            "supar": supar_peer.load(supar_run),
            "peer": True,
            "info": supar_peer.training_info(supar_run.parent),
        }
    for variant in QUANTIZED if quantize else []:
        if variant in found:
            base = found[variant]
            found[f"{variant}+int8"] = {**base, "model": quantize_for_cpu(base["model"]), "quantized_from": variant}
    return found


def time_models(
    models: dict[str, dict[str, Any]],
    test_file: Path,
    batch_sizes: list[int],
    repeats: int,
    device: torch.device,
    peer_max_batch: int,
) -> dict[str, dict[str, list[float]]]:
    """seconds[model][batch size] over interleaved repeats; also fills each model's predictions.
    Peers score every label for every word pair ((batch, n, n, labels) floats), which at batch 4096
    needs tens of GB, so they are timed only up to `peer_max_batch` (memory permitting)."""

    def skipped(entry: dict[str, Any], size: int) -> bool:
        return entry["peer"] and size > peer_max_batch

    batches = {}
    mean_length = sum(len(s.words) for s in read_conllu(test_file)) / sum(1 for _ in read_conllu(test_file))
    for name, entry in models.items():
        if "supar" in entry:
            batches[name] = {
                size: supar_peer.make_batches(entry["supar"], test_file, size, mean_length)
                for size in batch_sizes
                if not skipped(entry, size)
            }
            continue
        instances = read_for_model(entry["archive"], test_file)
        vocab = entry["model"].vocab
        batches[name] = {
            size: [(to_device(t, device), w) for t, w in make_batches(instances, vocab, size)]
            for size in batch_sizes
            if not skipped(entry, size)
        }
    seconds: dict[str, dict[str, list[float]]] = {name: {str(s): [] for s in batch_sizes} for name in models}
    for _ in range(repeats):
        for size in batch_sizes:
            for name, entry in models.items():
                if skipped(entry, size):
                    continue
                if "supar" in entry:
                    predictions, elapsed = supar_peer.predict(entry["supar"], batches[name][size])
                else:
                    predictions, elapsed = predict(entry["model"], batches[name][size])
                entry.setdefault("predictions", predictions)
                seconds[name][str(size)].append(elapsed)
    return seconds


def median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def per_second(count: int, runs: dict[str, list[float]]) -> dict[str, Any]:
    """count / median seconds per batch size; None where the model was not timed at that size."""
    return {size: round(count / median(values), 1) if values else None for size, values in runs.items()}


def benchmark_treebank(
    runs: Path, treebank: str, batch_sizes: list[int], repeats: int, peer_max_batch: int, devices: list[str]
) -> dict[str, Any]:
    _, test_name = TREEBANKS[treebank]
    test_file = data_path("ud", treebank, test_name)
    gold = list(read_conllu(test_file))
    tokens, sentences = sum(len(s.words) for s in gold), len(gold)
    models = load_models(runs, treebank, quantize="cpu" in devices)
    if not models:
        return {}
    cpu_seconds = gpu_seconds = None
    if "cpu" in devices:
        cpu_seconds = time_models(models, test_file, batch_sizes, repeats, torch.device("cpu"), peer_max_batch)
    if "gpu" in devices and torch.cuda.is_available():
        gpu_models = {
            n: {**e, "model": e["model"].cuda()}
            for n, e in models.items()
            if "quantized_from" not in e and "supar" not in e
        }
        gpu_seconds = time_models(gpu_models, test_file, batch_sizes, repeats, torch.device("cuda"), peer_max_batch)
        for name, entry in gpu_models.items():  # a GPU-only run scores the GPU predictions
            models[name].setdefault("predictions", entry["predictions"])
    full_params = count_trainable_parameters(models["full"]["model"]) if "full" in models else None
    rows: dict[str, Any] = {}
    for name, entry in models.items():
        uas, las = attachment_scores(test_file, entry["predictions"])
        if "supar" in entry:
            params = supar_peer.count_parameters(entry["supar"])
        else:
            params = count_trainable_parameters(models[entry.get("quantized_from", name)]["model"])
        row = {
            "uas": round(uas, 2),
            "las": round(las, 2),
            "params": params,
            "param_fraction": round(params / full_params, 4) if full_params and not entry["peer"] else None,
            "peer": entry["peer"],
            **entry["info"],
        }
        if "quantized_from" in entry:
            row["int8_dynamic_quantization"] = True
        for device, seconds in (("cpu", cpu_seconds), ("gpu", gpu_seconds)):
            if seconds and name in seconds:
                row[f"{device}_tokens_per_s"] = per_second(tokens, seconds[name])
                row[f"{device}_sentences_per_s"] = per_second(sentences, seconds[name])
        rows[name] = row
        print(
            f"{treebank} {name}: UAS {uas:.2f} LAS {las:.2f} params {params:,} "
            f"CPU tokens/s {row.get('cpu_tokens_per_s')} GPU tokens/s {row.get('gpu_tokens_per_s')}"
        )
    return {"test_sentences": sentences, "test_tokens": tokens, "models": rows}


def merge_figures(earlier: dict[str, Any], figures: dict[str, Any], measured: dict[str, Any]) -> dict[str, Any]:
    """This run's figures over an earlier run's for the same treebank: a model's row keeps the speed
    figures of a device this run did not time (e.g. GPU figures taken on another machine), and each
    device says when and under which settings it was measured."""
    models = {name: {**earlier.get("models", {}).get(name, {}), **row} for name, row in figures["models"].items()}
    for name, row in earlier.get("models", {}).items():
        if name not in models and any(f"{d}_tokens_per_s" in row for d in ("cpu", "gpu") if d not in measured):
            models[name] = {k: v for k, v in row.items() if not k.startswith(tuple(measured))}
    kept = {device: under for device, under in earlier.get("measured_under", {}).items() if device in ("cpu", "gpu")}
    return {**figures, "models": models, "measured_under": {**kept, **measured}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    parser.add_argument("--treebanks", nargs="+", default=list(TREEBANKS))
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[32, 256, 4096])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--peer-max-batch",
        type=int,
        default=256,
        help="largest batch at which peers are timed (their all-pairs label scores need O(b n^2 L) memory)",
    )
    parser.add_argument(
        "--devices",
        nargs="+",
        choices=["cpu", "gpu"],
        default=["cpu", "gpu"],
        help="where to time (gpu only when one is present); figures of the other device "
        "from an earlier run of the same treebank are kept",
    )
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument(
        "--replace",
        action="store_true",
        help="drop treebanks of an earlier results file that this run does not measure "
        "(default: keep them, each with the settings it was measured under)",
    )
    args = parser.parse_args()

    import_plugins()
    torch.set_num_threads(1)
    results: dict[str, Any] = {
        "benchmark": "parser_distillation",
        "threads": 1,
        "batch_sizes": args.batch_sizes,
        "repeats": args.repeats,
        "peer_max_batch": args.peer_max_batch,
        "hardware": hardware_description(),
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "timing": "forward + tree and label decoding on pre-built, length-sorted batches; median of repeats",
        "treebanks": {},
    }
    out_file = args.out / "parser_distillation.json"
    results["treebanks"] = earlier_treebanks(out_file, args.replace)
    measured_under = {
        key: results[key] for key in ("threads", "batch_sizes", "repeats", "peer_max_batch", "hardware", "gpu")
    }
    devices = [d for d in args.devices if d == "cpu" or torch.cuda.is_available()]
    for treebank in args.treebanks:
        figures = benchmark_treebank(args.runs, treebank, args.batch_sizes, args.repeats, args.peer_max_batch, devices)
        if figures:
            results["treebanks"][treebank] = merge_figures(
                results["treebanks"].get(treebank, {}),
                figures,
                {device: {**measured_under, "measured_on": time.strftime("%Y-%m-%d")} for device in devices},
            )
    args.out.mkdir(parents=True, exist_ok=True)
    out_file.write_text(json.dumps(results, indent=2) + "\n")
    write_report(out_file)


if __name__ == "__main__":
    main()
