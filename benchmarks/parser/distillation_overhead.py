"""What distillation adds to a parser student's training step, against the equal-size baseline
timed in the same process on one CPU thread.

    python -m benchmarks.parser.distillation_overhead --treebank UD_Wolof-WTB --size 20 [--batches 30 --repeats 5]

Builds D-x and B-x from their configs with the teacher's vocabulary (as `allennlp train` does),
regroups the training sentences into batches for each pass as AllenNLP's bucket sampler does
every epoch, and times a whole training step (forward, loss, backward,
gradient clipping, Adam step) for: B-x (cross-entropy, dropout on), D-x with the teacher run live
(what epoch 1 costs: it fills the cache) and D-x reading the cache (epochs 2 and later). The
variants take turns (round-robin); the figure is the median over repeats. A cProfile of one pass
of each then splits the step into its parts (teacher side, KL terms, student scores, backward).
The teacher archive comes from the D config (`runs/parser/<treebank>/teacher/model.tar.gz`).

Writes benchmarks/results/distillation_overhead.json and .md (one section per treebank/size).
"""

import argparse
import cProfile
import itertools
import json
import pstats
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from allennlp.common import Params
from allennlp.common.plugins import import_plugins
from allennlp.data import Batch, DatasetReader, Instance
from allennlp.data.samplers import BucketBatchSampler
from allennlp.models import Model
from allennlp.models.archival import load_archive

from benchmarks.common import REPO, RESULTS, hardware_description, markdown_table
from benchmarks.parser.distillation import TREEBANKS
from green_nlp.settings import data_dir
from green_nlp.training.parser_distiller import ParserDistiller

STUDENT = REPO / "training_configs" / "parser" / "student.jsonnet"  # TREEBANK, SIZE, DISTILLED, SEED pick one
# Functions whose cumulative time the profile reports (substring of cProfile's "file:line(name)").
PARTS = {
    "teacher scores (live run or cache)": "parser_distiller.py",
    "KL terms": "masked_kl_divergence",
    "student label scores": "(label_scores)",
    "score() (student; live teacher too)": "(score)",
    "backward": "(backward)",
    "optimizer step": "adam.py",
}


def build(student: dict[str, str], vocab: Any) -> dict[str, Any]:
    params = Params.from_file(str(STUDENT), ext_vars={"GREEN_NLP_DATA": str(data_dir()), **student})
    reader = DatasetReader.from_params(params.pop("dataset_reader"))
    model = Model.from_params(vocab=vocab, params=params.pop("model"))
    trainer = params.pop("trainer").as_dict()
    callbacks = [
        c for c in trainer.get("callbacks", []) if c.get("type") in ("green_parser_distillation", "green_distillation")
    ]
    return {
        "reader": reader,
        "model": model,
        "distillation": callbacks[0] if callbacks else None,
        "train": params.pop("train_data_path"),
        "batch_size": params["data_loader"]["batch_sampler"]["batch_size"],
        "lr": trainer["optimizer"].get("lr", 1e-3),
        "grad_norm": trainer.get("grad_norm") or 5.0,
    }


def training_step(
    model: torch.nn.Module, optimizer: torch.optim.Optimizer, tensors: dict[str, Any], grad_norm: float
) -> None:
    optimizer.zero_grad(set_to_none=True)
    model(**tensors)["loss"].backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), grad_norm)
    optimizer.step()


def one_pass(step: Callable[[dict[str, Any]], None], batches: list[dict[str, Any]]) -> float:
    start = time.perf_counter()
    for tensors in batches:
        step(tensors)
    return time.perf_counter() - start


def profile_parts(step: Callable[[dict[str, Any]], None], batches: list[dict[str, Any]]) -> dict[str, float]:
    profiler = cProfile.Profile()
    profiler.enable()
    total = one_pass(step, batches)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    parts: dict[str, float] = {"total": total}
    for part, needle in PARTS.items():
        # the outermost matching call's cumulative time (nested calls of the same part not added twice)
        times = [
            cumulative for (file, line, name), (_, _, _, cumulative, _) in stats.items() if needle in f"{file}({name})"
        ]
        parts[part] = max(times, default=0.0)
    return parts


def epoch_batches(instances: list[Instance], vocab: Any, batch_size: int, seed: int) -> list[dict[str, Any]]:
    """One epoch's batches from the sampler the configs train with (AllenNLP's bucket sampler:
    length-sorted with noise, batches shuffled, so a sentence's batch and padding change from one
    epoch to the next), seeded; tensorized here, outside the timing."""
    random.seed(seed)  # the sampler draws its noise and order from `random`
    sampler = BucketBatchSampler(batch_size, sorting_keys=["words"])
    batches = []
    for indices in sampler.get_batch_indices(instances):
        batch = Batch([instances[i] for i in indices])
        batch.index_instances(vocab)
        batches.append(batch.as_tensor_dict())
    return batches


def count_teacher_runs(distiller: ParserDistiller) -> list[int]:
    """From now on, record each live teacher run of `distiller` (a cache miss) in the returned list."""
    runs: list[int] = []
    run_teacher = distiller._run_teacher

    def counted(*args: Any) -> Any:
        runs.append(1)
        return run_teacher(*args)

    distiller._run_teacher = counted  # type: ignore[method-assign]
    return runs


def measure(treebank: str, size: int, runs: Path, max_batches: int, repeats: int) -> dict[str, Any]:
    folder = TREEBANKS[treebank][0]
    d_config, b_config = (
        {"TREEBANK": folder, "SIZE": str(size), "DISTILLED": distilled, "SEED": "1"} for distilled in ("true", "false")
    )
    teacher_archive = runs / "parser" / folder / "teacher" / "model.tar.gz"
    if not teacher_archive.exists():
        raise SystemExit(f"no teacher at {teacher_archive}: train it first (benchmarks/runs/parser_small_treebanks.sh)")
    teacher = load_archive(str(teacher_archive)).model
    vocab = teacher.vocab
    torch.manual_seed(0)
    distilled, baseline = build(d_config, vocab), build(b_config, vocab)
    settings = distilled["distillation"]
    instances = list(
        itertools.islice(distilled["reader"].read(distilled["train"]), max_batches * distilled["batch_size"])
    )
    for instance in instances:
        distilled["reader"].apply_token_indexers(instance)
    batch_size = distilled["batch_size"]
    batches = epoch_batches(instances, vocab, batch_size, seed=0)

    def stepper(built: dict[str, Any], distiller: Any) -> Callable[[dict[str, Any]], None]:
        model = built["model"].train()
        if distiller is not None:
            model.attach_distiller(distiller)
        optimizer = torch.optim.Adam(model.parameters(), lr=built["lr"], betas=(0.9, 0.9))
        return lambda tensors: training_step(model, optimizer, tensors, built["grad_norm"])

    options = {k: settings[k] for k in ("temperature", "kl_weight", "ce_weight") if k in settings}
    cached = ParserDistiller(teacher, cache_teacher_outputs=True, **options)
    live = ParserDistiller(teacher, cache_teacher_outputs=False, **options)
    d_cached_model = build(d_config, vocab)
    variants = {
        "B (no teacher)": stepper(baseline, None),
        "D, teacher live (epoch 1)": stepper(distilled, live),
        "D, teacher cached (epochs 2+)": stepper(d_cached_model, cached),
    }
    # fill the cache as epoch 1 does; every later pass is another "epoch": the sentences regrouped
    # as the bucket sampler regroups them, the same batches for every variant within a repeat
    one_pass(variants["D, teacher cached (epochs 2+)"], epoch_batches(instances, vocab, batch_size, seed=1000))
    teacher_runs = count_teacher_runs(cached)
    for step in variants.values():
        one_pass(step, batches[:2])  # warm-up
    seconds: dict[str, list[float]] = {name: [] for name in variants}
    for repeat in range(repeats):
        epoch = epoch_batches(instances, vocab, batch_size, seed=repeat + 1)
        for name, step in variants.items():
            seconds[name].append(one_pass(step, epoch))
    base = statistics.median(seconds["B (no teacher)"])
    rows = {}
    for name, times in seconds.items():
        median = statistics.median(times)
        rows[name] = {"seconds_per_batch": median / len(batches), "ratio_to_B": median / base}
    for name, step in variants.items():
        rows[name]["profile_seconds"] = profile_parts(step, epoch_batches(instances, vocab, batch_size, seed=999))
    rows["D, teacher cached (epochs 2+)"]["teacher_runs_after_epoch_1"] = len(teacher_runs)
    words = sum(int(tensors["words"]["tokens"]["tokens"].gt(0).sum()) for tensors in batches)
    return {
        "treebank": treebank,
        "size": size,
        "batches": len(batches),
        "batch_size": distilled["batch_size"],
        "words": words,
        "repeats": repeats,
        "distillation": settings,
        "variants": rows,
    }


def write_report(results: dict[str, Any]) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "distillation_overhead.json").write_text(json.dumps(results, indent=2) + "\n")
    text = ""
    for key, found in results["runs"].items():
        rows = {}
        for name, row in found["variants"].items():
            profile = row["profile_seconds"]
            rows[name] = {
                "ms per batch": 1000 * row["seconds_per_batch"],
                "x B": row["ratio_to_B"],
                **{f"{part} %": 100 * profile[part] / profile["total"] for part in PARTS},
            }
        text += (
            f"#### {key}: {found['batches']} training batches of {found['batch_size']} sentences "
            f"({found['words']:,} words), median of {found['repeats']}\n\n"
        )
        text += markdown_table(rows, list(next(iter(rows.values()))), "training step") + "\n"
        misses = found["variants"]["D, teacher cached (epochs 2+)"].get("teacher_runs_after_epoch_1")
        text += f"Teacher runs in the cached passes (cache misses): {misses}.\n\n"
    text += (
        f"One CPU thread; a step is forward + loss + backward + clipping + Adam. Part shares come from a "
        f"cProfile pass (profiling slows Python-heavy parts more than the tensor kernels). "
        f"{results['hardware']}.\n"
    )
    (RESULTS / "distillation_overhead.md").write_text(text)
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--treebank", default="UD_Wolof-WTB", choices=list(TREEBANKS))
    parser.add_argument("--size", type=int, default=20, choices=(20, 40, 60, 80))
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    parser.add_argument("--batches", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    import_plugins()
    path = RESULTS / "distillation_overhead.json"
    results = json.loads(path.read_text()) if path.exists() else {"runs": {}}
    results["runs"][f"{args.treebank} {args.size}"] = measure(
        args.treebank, args.size, args.runs, args.batches, args.repeats
    )
    results["hardware"] = hardware_description()
    write_report(results)


if __name__ == "__main__":
    main()
