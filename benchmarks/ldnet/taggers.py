"""LD-Net on CPU: span F1, LM FLOPs per word, parameters and one-thread words/s of the NoLM,
origin (unpruned) and pruned taggers, all measured here in one run, plus the LMs' perplexity.

Reads the archives that benchmarks/runs/ldnet.sh trains (runs/ldnet/<dataset>/{nolm,origin,pruned},
and pruned_ft, the pruned tagger fine-tuned with its LM layers fixed, where it exists); datasets
without the first three archives are left out (and listed as missing). Writes
benchmarks/results/ldnet.json and .md.

    python -m benchmarks.ldnet.taggers [--batch-size 64] [--repeats 3]
"""

import argparse
import json
import time
from pathlib import Path
from typing import Any

import torch

from benchmarks.common import hardware_description, write_results

RUNS = Path("runs/ldnet")
VARIANTS = ("nolm", "origin", "pruned")
OPTIONAL_VARIANTS = ("pruned_ft",)  # beyond the paper: measured where benchmarks/runs/ldnet.sh made it
# where each variant's training metrics (epochs) are: pruned_ft's archive is rewritten from finetune/
METRICS_DIRS = {"pruned_ft": "finetune"}
# dataset -> test file under the data root
TEST_FILES = {
    "conll2003": ("ner", "conll2003", "eng.testb"),
    "conll2000": ("chunk", "conll2000", "test.txt"),
    "wnut17": ("ner", "wnut17", "emerging.test.annotated"),
}


def _f1(model, instances, batch_size: int) -> float:
    model.get_metrics(reset=True)
    with torch.no_grad():
        for start in range(0, len(instances), batch_size):
            model.forward_on_instances(instances[start : start + batch_size])
    return model.get_metrics(reset=True)["f1-measure-overall"]


def _timed_pass(model, reader, ordered: list[list[str]], batch_size: int) -> float:
    start = time.perf_counter()
    with torch.no_grad():
        for i in range(0, len(ordered), batch_size):
            model.forward_on_instances([reader.text_to_instance(s) for s in ordered[i : i + batch_size]])
    return time.perf_counter() - start


def _tensor_batches(model, reader, ordered: list[list[str]], batch_size: int) -> list[dict[str, Any]]:
    """The test sentences indexed and padded once, for timing the model alone."""
    from allennlp.data import Batch

    batches = []
    for i in range(0, len(ordered), batch_size):
        batch = Batch([reader.text_to_instance(s) for s in ordered[i : i + batch_size]])
        batch.index_instances(model.vocab)
        batches.append(batch.as_tensor_dict())
    return batches


def _timed_model_pass(model, batches: list[dict[str, Any]]) -> float:
    start = time.perf_counter()
    with torch.no_grad():
        for tensors in batches:
            model(tokens=tensors["tokens"])  # LMs, tagger and Viterbi; no indexing, no output dicts
    return time.perf_counter() - start


def measure(dataset: str, batch_size: int, repeats: int) -> dict[str, Any]:
    """F1 etc. per variant; then words/s, timing the variants in turn (round-robin, best of
    `repeats`) so that load changes on a shared machine hit them alike. A timed pass is prediction
    (indexing, LMs, tagger, Viterbi) over the test sentences sorted by length, one thread; a
    model-only pass times the same batches already indexed, to show what indexing costs."""
    from allennlp.models.archival import load_archive

    from green_nlp.nn.flops import ldnet_tagger_flops_per_token
    from green_nlp.settings import data_path

    test_file = data_path(*TEST_FILES[dataset])
    results: dict[str, Any] = {"test_file": "/".join(TEST_FILES[dataset])}
    loaded = {}
    variants = VARIANTS + tuple(v for v in OPTIONAL_VARIANTS if (RUNS / dataset / v / "model.tar.gz").exists())
    for variant in variants:
        archive = load_archive(str(RUNS / dataset / variant / "model.tar.gz"))
        model, reader = archive.model.eval(), archive.validation_dataset_reader
        instances = list(reader.read(str(test_file)))
        sentences = [[t.text for t in i["tokens"].tokens] for i in instances]
        mean_chars = sum(len(w) for s in sentences for w in s) / sum(len(s) for s in sentences)
        flops = ldnet_tagger_flops_per_token(model, mean_chars)
        row = {
            "f1": round(100 * _f1(model, instances, batch_size), 2),
            "lm_flops_per_token": int(flops["lm"]),
            "tagger_flops_per_token": int(flops["tagger"]),
            "params": sum(p.numel() for p in model.parameters()),
            "lm_params": sum(p.numel() for p in model.language_models.parameters()),
            "lm_layers": [lm.rnn.num_layers for lm in model.language_models],
        }
        if variant != "nolm":
            row["gates"] = [round(float(z), 4) for z in model.lm_gates]
        metrics_file = RUNS / dataset / METRICS_DIRS.get(variant, variant) / "metrics.json"
        if metrics_file.exists():
            row["epochs"] = json.loads(metrics_file.read_text()).get("epoch", -1) + 1
        results[variant] = row
        loaded[variant] = (model, reader, sorted(sentences, key=len))
    best = {variant: float("inf") for variant in variants}
    best_model_only = dict(best)
    tensors = {
        variant: _tensor_batches(model, reader, ordered, batch_size)
        for variant, (model, reader, ordered) in loaded.items()
    }
    for _ in range(repeats):
        for variant, (model, reader, ordered) in loaded.items():
            best[variant] = min(best[variant], _timed_pass(model, reader, ordered, batch_size))
            best_model_only[variant] = min(best_model_only[variant], _timed_model_pass(model, tensors[variant]))
    for variant, (_, _, ordered) in loaded.items():
        words = sum(len(s) for s in ordered)
        results[variant]["cpu_words_per_s"] = round(words / best[variant], 1)
        results[variant]["model_only_words_per_s"] = round(words / best_model_only[variant], 1)
        print(dataset, variant, results[variant], flush=True)
    nolm, origin, pruned = (results[v]["f1"] for v in VARIANTS)
    gain = origin - nolm
    results["aims"] = {
        "origin_gain_f1": round(gain, 2),
        "origin_beats_nolm_by_0.5": gain >= 0.5,
        # a share of a gain within noise (< 0.5 F1) says nothing, so it is only given for a real gain
        "pruned_share_of_gain": round((pruned - nolm) / gain, 3) if gain >= 0.5 else None,
        "pruned_keeps_80pct_of_gain": gain >= 0.5 and (pruned - nolm) >= 0.8 * gain,
        "lm_flops_reduction": round(
            results["origin"]["lm_flops_per_token"] / results["pruned"]["lm_flops_per_token"], 2
        ),
        "speedup_words_per_s": round(results["pruned"]["cpu_words_per_s"] / results["origin"]["cpu_words_per_s"], 2),
        "speedup_model_only": round(
            results["pruned"]["model_only_words_per_s"] / results["origin"]["model_only_words_per_s"], 2
        ),
    }
    results["aims"]["lm_flops_5x_fewer"] = results["aims"]["lm_flops_reduction"] >= 5
    results["aims"]["words_per_s_3x"] = results["aims"]["speedup_words_per_s"] >= 3
    if "pruned_ft" in results:
        tuned = results["pruned_ft"]["f1"]
        results["aims"]["pruned_ft_f1_change"] = round(tuned - pruned, 2)
        results["aims"]["pruned_ft_share_of_gain"] = round((tuned - nolm) / gain, 3) if gain >= 0.5 else None
        results["aims"]["pruned_ft_keeps_80pct_of_gain"] = gain >= 0.5 and (tuned - nolm) >= 0.8 * gain
        results["aims"]["pruned_ft_speedup_words_per_s"] = round(
            results["pruned_ft"]["cpu_words_per_s"] / results["origin"]["cpu_words_per_s"], 2
        )
    return results


def aims_text(dataset: str, aims: dict[str, Any]) -> str:
    """The issue's aims for one data set as a sentence, each marked met or not met."""

    def mark(ok: bool) -> str:
        return "met" if ok else "not met"

    def share_text(share: Any) -> str:
        return "n/a" if share is None else f"{100 * share:.0f} %"

    tuned = (
        ""
        if "pruned_ft_f1_change" not in aims
        else (
            f" Fine-tuning the pruned tagger (beyond the paper) changes its F1 by {aims['pruned_ft_f1_change']:+.2f} "
            f"(share of the gain {share_text(aims['pruned_ft_share_of_gain'])}; words/s "
            f"{aims['pruned_ft_speedup_words_per_s']}x origin)."
        )
    )
    return (
        f"{dataset}: LM gain over NoLM {aims['origin_gain_f1']:+.2f} F1 "
        f"(aim +0.5: {mark(aims['origin_beats_nolm_by_0.5'])}); "
        f"pruned keeps {share_text(aims['pruned_share_of_gain'])} of that gain "
        f"(aim 80 %: {mark(aims['pruned_keeps_80pct_of_gain'])}); LM FLOPs {aims['lm_flops_reduction']}x fewer "
        f"(aim 5x: {mark(aims['lm_flops_5x_fewer'])}); words/s {aims['speedup_words_per_s']}x origin "
        f"(aim 3x: {mark(aims['words_per_s_3x'])}; model alone, input already indexed: "
        f"{aims['speedup_model_only']}x)." + tuned
    )


# Test F1 of the NoLM and origin taggers trained with more than one seed (from each run's own
# metrics.json, written by `allennlp train` with evaluate_on_test), to tell the LMs' gain from seed
# noise. Before the taggers dropped LM outputs, their runs were kept under v1_no_lm_dropout/.
SEED_RUNS = {"conll2003": {"1": "conll2003", "2": "conll2003_seed2"}}
WITHOUT_LM_DROPOUT = "v1_no_lm_dropout"


def _test_f1(run: Path) -> Any:
    metrics_file = run / "metrics.json"
    if not metrics_file.exists():
        return None
    return round(100 * json.loads(metrics_file.read_text())["test_f1-measure-overall"], 2)


def seed_summary(dataset: str) -> dict[str, Any]:
    """Per seed: NoLM and origin test F1 and their difference; the mean difference over the seeds
    that have both; and origin without LM dropout where that earlier run is kept."""
    seeds: dict[str, Any] = {}
    for seed, folder in SEED_RUNS.get(dataset, {}).items():
        nolm, origin = _test_f1(RUNS / folder / "nolm"), _test_f1(RUNS / folder / "origin")
        if nolm is None or origin is None:
            continue
        seeds[seed] = {
            "nolm": nolm,
            "origin": origin,
            "gain": round(origin - nolm, 2),
            "origin_without_lm_dropout": _test_f1(RUNS / WITHOUT_LM_DROPOUT / folder / "origin"),
        }
    if not seeds:
        return {}
    gains = [row["gain"] for row in seeds.values()]
    summary: dict[str, Any] = {"seeds": seeds, "mean_gain": round(sum(gains) / len(gains), 2)}
    earlier = [
        row["origin_without_lm_dropout"] - row["nolm"]
        for row in seeds.values()
        if row["origin_without_lm_dropout"] is not None
    ]
    if len(earlier) == len(seeds):
        summary["mean_gain_without_lm_dropout"] = round(sum(earlier) / len(earlier), 2)
    return summary


def seeds_text(dataset: str, summary: dict[str, Any]) -> str:
    per_seed = "; ".join(
        f"seed {seed}: NoLM {row['nolm']}, origin {row['origin']} ({row['gain']:+.2f})"
        for seed, row in summary["seeds"].items()
    )
    earlier = (
        ""
        if "mean_gain_without_lm_dropout" not in summary
        else f", {summary['mean_gain_without_lm_dropout']:+.2f} without LM dropout"
    )
    return (
        f"{dataset} over {len(summary['seeds'])} seeds ({per_seed}): "
        f"mean LM gain {summary['mean_gain']:+.2f} F1{earlier}."
    )


def language_models() -> dict[str, Any]:
    found = {}
    for direction in ("forward", "backward"):
        metrics_file = RUNS / f"lm_{direction}" / "metrics.json"
        if metrics_file.exists():
            metrics = json.loads(metrics_file.read_text())
            found[direction] = {
                "validation_perplexity": round(metrics["best_validation_perplexity"], 1),
                "training_perplexity": round(metrics["training_perplexity"], 1),
                "epochs": metrics.get("epoch", -1) + 1,
            }
    return found


def main() -> None:
    global RUNS
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--runs", type=Path, default=Path("runs/ldnet"), help="where benchmarks/runs/ldnet.sh trained")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args()
    RUNS = args.runs
    torch.set_num_threads(1)
    import green_nlp  # noqa: F401

    datasets, missing = {}, []
    for dataset in TEST_FILES:
        if all((RUNS / dataset / v / "model.tar.gz").exists() for v in VARIANTS):
            datasets[dataset] = measure(dataset, args.batch_size, args.repeats)
        else:
            missing.append(dataset)
    lms = language_models()
    seeds = {d: summary for d in TEST_FILES if (summary := seed_summary(d))}
    results = {
        "datasets": datasets,
        "seeds": seeds,
        "language_models": lms,
        "not_measured": missing,
        "setting": {
            "threads": 1,
            "batch_size_sentences": args.batch_size,
            "repeats": args.repeats,
            "hardware": hardware_description(),
            "flops": "multiply-adds of matrix products per word (green_nlp.nn.flops)",
        },
    }
    rows = {f"{d} {v}": datasets[d][v] for d in datasets for v in VARIANTS + OPTIONAL_VARIANTS if v in datasets[d]}
    perplexity = ", ".join(f"{k} {v['validation_perplexity']}" for k, v in lms.items())
    note = (
        f"Span F1 on the test set; words/s on one CPU thread, batches of {args.batch_size} sentences "
        f"sorted by length, variants timed in turn, best of {args.repeats} ({hardware_description()}). "
        "LM perplexity (dev): "
        f"{perplexity or 'n/a'}. Not measured (no trained runs): {', '.join(missing) or 'none'}. Aims: "
        + " ".join(aims_text(d, datasets[d]["aims"]) for d in datasets)
        + "".join(" " + seeds_text(d, summary) for d, summary in seeds.items())
    )
    write_results(
        args.out,
        "ldnet",
        results,
        rows,
        [
            "f1",
            "lm_flops_per_token",
            "tagger_flops_per_token",
            "cpu_words_per_s",
            "model_only_words_per_s",
            "params",
            "lm_layers",
            "epochs",
        ],
        note,
        first_column="dataset / variant",
    )


if __name__ == "__main__":
    main()
