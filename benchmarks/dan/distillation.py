"""Sparse distillation: accuracy, size and one-thread CPU speed of the MiniLM teacher, the n-gram
DAN (scratch, KD, KD+FT), a fastText-style linear baseline over the same n-grams, and the DAN's
accuracy after n-gram pruning (the seed paper's Figure 5), per dataset.

Runs are expected at RUNS/dan/<folder>/{teacher,scratch,kd,kd_ft}/model.tar.gz (see
benchmarks/runs/dan.sh): the folder is the dataset's name, except for `sst2` and `imdb`, whose
teachers were fine-tuned on a GPU (RUNS/dan/sst2_full, RUNS/dan/imdb_full), and `sst2_cpu` and
`imdb_cpu`, their CPU-sized setups (RUNS/dan/sst2, RUNS/dan/imdb), scored on the same test sets.
Every model of a dataset is timed in this one process with one torch thread, on the same texts (the
test set, or its first --max-timing-examples), in batches of
--batch-size, the models in turn (round-robin, best of --repeats) so that load changes on a shared
machine hit them alike: `cpu_examples_per_s` covers tokenization +
indexing + the forward pass through AllenNLP's own Instance/Batch path (what `allennlp predict`
does); `tokenize_examples_per_s` the tokenization + indexing alone; `direct_cpu_examples_per_s`
the same work without AllenNLP's per-instance objects (the teacher's fast tokenizer on a whole
batch, the DAN's analyzer + a dict lookup), checked to give the same predictions.

    python -m benchmarks.dan.distillation [--runs runs] [--datasets sst2 trec imdb] [--batch-size 32] [--repeats 3]

Writes benchmarks/results/dan.json (datasets not re-run are kept from an earlier file), dan.md
and dan_pruning.png.
"""

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple, Optional

import numpy
import torch
from allennlp.data import Batch
from allennlp.models.archival import Archive, load_archive

import green_nlp  # noqa: F401  (registers the components)
from benchmarks.common import RESULTS, hardware_description, markdown_table
from green_nlp.commands.green_prune_ngrams import prune_archive
from green_nlp.dataset_readers.text_classification import (
    TextExample,
    read_examples,
    readable_label,
    split_heldout,
    subsample,
)
from green_nlp.settings import data_path

MODELS = ("teacher", "dan_scratch", "dan_kd", "dan_kd_ft", "dan_kd_train_only", "dan_kd_augmented")
# Ablations, where one was run: dan_kd_train_only (TREC) is DAN(KD) on the teacher's labels for the
# training questions alone, without the augmented copies; dan_kd_augmented (SST-2) is DAN(KD) with
# augmented copies of the labeled phrases added to its corpus
RUN_FOLDER = {
    "teacher": "teacher",
    "dan_scratch": "scratch",
    "dan_kd": "kd",
    "dan_kd_ft": "kd_ft",
    "dan_kd_train_only": "kd_train_only",
    "dan_kd_augmented": "kd_augmented",
}
# dataset -> (run folder under RUNS/dan, config suffix, evaluation data) where they differ from its name
# (the *_cpu datasets are the CPU-sized setups; the others have teachers fine-tuned on a GPU)
RUN_SETUP = {
    "sst2": ("sst2_full", "sst2_full", "sst2"),
    "sst2_cpu": ("sst2", "sst2", "sst2"),
    "imdb": ("imdb_full", "imdb_full", "imdb"),
    "imdb_cpu": ("imdb", "imdb", "imdb"),
}
DATASETS = ("sst2", "sst2_cpu", "trec", "imdb", "imdb_cpu")
TREC_DEV_EVERY = 10  # as training_configs/dan/teacher_trec.jsonnet and student.jsonnet's DATASET=trec
PRUNE_FRACTIONS = (1.0, 0.5, 0.25, 0.1, 0.03, 0.01, 0.003)
AIM_NAMES = (
    ("97 % of teacher", "meets_97_percent_of_teacher"),
    ("+1.0 over scratch", "meets_1_point_over_scratch"),
    ("30x teacher speed", "meets_30x_speed"),
)


def evaluation_sets(dataset: str) -> dict[str, tuple[list[TextExample], str]]:
    """name -> (labeled examples, what they are). `test` is the figure reported as `accuracy`."""
    dataset = setup(dataset)[2]
    if dataset == "sst2":
        root = data_path("cls", "sst2")
        return {
            "test": (list(read_examples(root / "test.tsv")), "SST-2 test, 1,821 sentences (labels public here)"),
            "dev": (list(read_examples(root / "dev.tsv")), "SST-2 dev, 872 sentences"),
        }
    if dataset == "trec":
        root = data_path("cls", "trec")
        dev = list(split_heldout(read_examples(root / "train.txt"), "dev", TREC_DEV_EVERY))
        return {
            "test": (list(read_examples(root / "test.txt")), "TREC test, 500 questions, 6 classes"),
            "dev": (
                dev,
                f"TREC dev: every {TREC_DEV_EVERY}th training question ({len(dev)}), held out "
                "from training and used for model selection",
            ),
        }
    if dataset == "imdb":
        sample = list(subsample(read_examples(data_path("cls", "imdb", "test.jsonl.gz")), every=25))
        return {"test": (sample, f"IMDB test, every 25th review ({len(sample)} of 25,000; CPU time)")}
    raise ValueError(f"unknown dataset {dataset}")


class ModelRun(NamedTuple):
    folder: str  # under <runs>/dan
    config: str  # the config it was trained from, with its external variables


def setup(dataset: str) -> tuple[str, str, str]:
    """(run folder, config suffix, evaluation data) of a dataset of the results."""
    return RUN_SETUP.get(dataset, (dataset, dataset, dataset))


def run_folder(dataset: str) -> str:
    return setup(dataset)[0]


def model_runs(dataset: str) -> dict[str, ModelRun]:
    """Which run each row of `dataset` reads, in the order they are reported."""
    folder, suffix, _ = setup(dataset)
    return {model: ModelRun(f"{folder}/{RUN_FOLDER[model]}", config_of(model, suffix)) for model in MODELS}


def config_of(model: str, suffix: str) -> str:
    """The teacher's config file, or student.jsonnet with the DATASET and STAGE that pick the DAN (the stage is
    the run folder's name)."""
    if model == "teacher":
        return f"training_configs/dan/teacher_{suffix}.jsonnet"
    return f"DATASET={suffix} STAGE={RUN_FOLDER[model]} training_configs/dan/student.jsonnet"


def _tensors(archive: Archive, texts: list[str]) -> dict[str, Any]:
    reader = archive.validation_dataset_reader
    instances = [reader.text_to_instance(text) for text in texts]
    for instance in instances:
        reader.apply_token_indexers(instance)
    batch = Batch(instances)
    batch.index_instances(archive.model.vocab)
    return batch.as_tensor_dict()


def run_model(archive: Archive, texts: list[str], batch_size: int) -> tuple[list[str], float, float]:
    """Predicted labels, end-to-end seconds, tokenization-only seconds (one warm-up batch first)."""
    model = archive.model.eval()
    namespace = getattr(model, "_label_namespace", "labels")
    names = model.vocab.get_index_to_token_vocabulary(namespace)
    batches = [texts[i : i + batch_size] for i in range(0, len(texts), batch_size)]
    with torch.no_grad():
        model(**_tensors(archive, batches[0]))
        start = time.perf_counter()
        for batch in batches:
            _tensors(archive, batch)
        tokenize_seconds = time.perf_counter() - start
        predicted: list[str] = []
        start = time.perf_counter()
        for batch in batches:
            logits = model(**_tensors(archive, batch))["logits"]
            predicted += [names[int(i)] for i in logits.argmax(-1)]
        total_seconds = time.perf_counter() - start
    return predicted, total_seconds, tokenize_seconds


def direct_tensors(archive: Archive, texts: list[str]) -> dict[str, Any]:
    """The same inputs without AllenNLP's Instance/Batch machinery (a deployment would do this):
    the teacher's HF fast tokenizer on the whole batch; the DAN's analyzer + a dict lookup."""
    model = archive.model
    if hasattr(model, "ngram_embedding"):
        lookup = model.vocab.get_token_to_index_vocabulary(model._ngram_namespace)
        analyzer = archive.validation_dataset_reader.analyzer
        rows = [[lookup[g] for g in analyzer(text) if g in lookup] for text in texts]
        ngrams = torch.zeros(len(rows), max(1, max(len(r) for r in rows)), dtype=torch.long)
        for i, row in enumerate(rows):
            ngrams[i, : len(row)] = torch.tensor(row, dtype=torch.long)
        return {"ngrams": ngrams}
    tokenizer = archive.validation_dataset_reader._tokenizer
    encoded = tokenizer.tokenizer(
        texts, padding=True, truncation=True, max_length=tokenizer._max_length, return_tensors="pt"
    )
    return {
        "tokens": {
            "tokens": {
                "token_ids": encoded["input_ids"],
                "mask": encoded["attention_mask"].bool(),
                "type_ids": encoded["token_type_ids"],
            }
        }
    }


def run_direct(archive: Archive, texts: list[str], batch_size: int) -> tuple[list[int], float]:
    model = archive.model.eval()
    batches = [texts[i : i + batch_size] for i in range(0, len(texts), batch_size)]
    predicted: list[int] = []
    with torch.no_grad():
        model(**direct_tensors(archive, batches[0]))
        start = time.perf_counter()
        for batch in batches:
            predicted += model(**direct_tensors(archive, batch))["logits"].argmax(-1).tolist()
        seconds = time.perf_counter() - start
    return predicted, seconds


def parameters(model: torch.nn.Module) -> dict[str, int]:
    total = sum(p.numel() for p in model.parameters())
    embedding = getattr(model, "ngram_embedding", None)
    result = {"params": total}
    if embedding is not None:
        result["embedding_params"] = embedding.weight.numel()
        result["dense_params"] = total - embedding.weight.numel()
    return result


def accuracies(archive: Archive, sets: dict[str, tuple[list[TextExample], str]], batch_size: int) -> dict[str, Any]:
    """Parameters and accuracy per set through AllenNLP's path (`accuracy` = test, `<set>_accuracy`
    otherwise), and whether the direct path predicts the same on the test set."""
    result: dict[str, Any] = parameters(archive.model)
    names = archive.model.vocab.get_index_to_token_vocabulary(getattr(archive.model, "_label_namespace", "labels"))
    label_names = getattr(archive.validation_dataset_reader, "label_names", None)
    for name, (examples, _) in sets.items():
        texts = [e.text for e in examples]
        predicted, _, _ = run_model(archive, texts, batch_size)
        gold = [readable_label(e.label, label_names) for e in examples]  # models that name their classes
        accuracy = float(numpy.mean([p == g for p, g in zip(predicted, gold)]))
        if name == "test":
            direct, _ = run_direct(archive, texts, batch_size)
            result.update(accuracy=accuracy, direct_same_predictions=[names[i] for i in direct] == predicted)
        else:
            result[f"{name}_accuracy"] = accuracy
    return result


def speeds(
    archives: dict[str, Archive], texts: list[str], batch_size: int, repeats: int
) -> dict[str, dict[str, float]]:
    """Examples/s per model on `texts`, the models timed in turn (round-robin), best of `repeats`:
    end to end through AllenNLP's path, its tokenization + indexing alone, the forward pass alone
    (the difference), and end to end through the direct path."""
    best = {model: {"total": float("inf"), "tokenize": float("inf"), "direct": float("inf")} for model in archives}
    for _ in range(repeats):
        for model, archive in archives.items():
            _, total, tokenize = run_model(archive, texts, batch_size)
            _, direct = run_direct(archive, texts, batch_size)
            seconds = best[model]
            seconds.update(
                total=min(seconds["total"], total),
                tokenize=min(seconds["tokenize"], tokenize),
                direct=min(seconds["direct"], direct),
            )
    n = len(texts)
    return {
        model: {
            "cpu_examples_per_s": n / s["total"],
            "tokenize_examples_per_s": n / s["tokenize"],
            "model_examples_per_s": n / max(1e-9, s["total"] - s["tokenize"]),
            "direct_cpu_examples_per_s": n / s["direct"],
        }
        for model, s in best.items()
    }


def linear_baseline(
    archive: Archive,
    train: list[TextExample],
    sets: dict[str, Any],
    timing_texts: list[str],
    batch_size: int,
    repeats: int,
) -> dict[str, Any]:
    """fastText-style: a linear classifier over the DAN's own n-grams (L2-normalised counts), trained
    on DAN(scratch)'s labeled examples; timed like the DAN (text in, batches, best of `repeats`)."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import Normalizer

    vocab = archive.model.vocab
    ngrams = [vocab.get_token_from_index(i, "ngrams") for i in range(2, vocab.get_vocab_size("ngrams"))]
    pipeline = make_pipeline(
        CountVectorizer(analyzer=archive.dataset_reader.analyzer, vocabulary=ngrams),
        Normalizer(),
        LogisticRegression(C=10.0, max_iter=2000),
    )
    pipeline.fit([e.text for e in train], [e.label for e in train])
    classes = len(pipeline[-1].classes_)
    outputs = classes if classes > 2 else 1
    result: dict[str, Any] = {"params": len(ngrams) * outputs + outputs, "train_examples": len(train)}
    for name, (examples, _) in sets.items():
        predicted = pipeline.predict([e.text for e in examples])
        accuracy = float(numpy.mean([p == e.label for p, e in zip(predicted, examples)]))
        result["accuracy" if name == "test" else f"{name}_accuracy"] = accuracy
    batches = [timing_texts[i : i + batch_size] for i in range(0, len(timing_texts), batch_size)]
    seconds = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for batch in batches:
            pipeline.predict(batch)
        seconds = min(seconds, time.perf_counter() - start)
    result["cpu_examples_per_s"] = len(timing_texts) / seconds
    return result


def training_examples(archive: Archive) -> list[TextExample]:
    """The DAN(scratch) run's labeled training examples, read as its config read them."""
    reader = archive.dataset_reader
    path = archive.config["train_data_path"]
    examples = (e for e in read_examples(path, reader._format, reader._fine_labels) if e.label is not None)
    examples = split_heldout(examples, reader._split, reader._dev_every)
    return list(subsample(examples, reader._sample_every, reader._max_examples, reader._sample_offset))


def pruning_curve(
    archive_file: Path, sets: dict[str, Any], timing_texts: list[str], batch_size: int, repeats: int
) -> list[dict[str, Any]]:
    archive = load_archive(str(archive_file))
    size = archive.model.vocab.get_vocab_size("ngrams") - 2
    del archive
    test = {"test": sets["test"]}
    curve = []
    with tempfile.TemporaryDirectory() as directory:
        for fraction in PRUNE_FRACTIONS:
            keep = max(1, int(size * fraction))
            pruned = Path(directory) / f"pruned_{keep}.tar.gz"
            prune_archive(str(archive_file), keep, str(pruned))
            pruned_archive = load_archive(str(pruned))
            result = accuracies(pruned_archive, test, batch_size)
            speed = speeds({"pruned": pruned_archive}, timing_texts, batch_size, repeats)["pruned"]
            curve.append(
                {
                    "kept_ngrams": keep,
                    "fraction": fraction,
                    "params": result["params"],
                    "accuracy": result["accuracy"],
                    "cpu_examples_per_s": speed["cpu_examples_per_s"],
                }
            )
            print(f"  pruned to {keep:,} n-grams: accuracy {result['accuracy']:.4f}", flush=True)
    return curve


def aims(models: dict[str, Any]) -> dict[str, Any]:
    teacher, scratch = models.get("teacher"), models.get("dan_scratch")
    out: dict[str, Any] = {}
    for student in ("dan_kd", "dan_kd_ft", "dan_kd_augmented"):
        if student not in models or teacher is None:
            continue
        s = models[student]
        out[student] = {
            "fraction_of_teacher_accuracy": s["accuracy"] / teacher["accuracy"],
            "meets_97_percent_of_teacher": s["accuracy"] >= 0.97 * teacher["accuracy"],
            "speedup_over_teacher": s["cpu_examples_per_s"] / teacher["cpu_examples_per_s"],
            "meets_30x_speed": s["cpu_examples_per_s"] >= 30 * teacher["cpu_examples_per_s"],
            "direct_speedup_over_teacher": s["direct_cpu_examples_per_s"] / teacher["direct_cpu_examples_per_s"],
            "meets_30x_speed_direct": s["direct_cpu_examples_per_s"] >= 30 * teacher["direct_cpu_examples_per_s"],
        }
        if scratch is not None:
            gain = 100 * (s["accuracy"] - scratch["accuracy"])
            out[student].update(points_over_scratch=gain, meets_1_point_over_scratch=gain >= 1.0)
    return out


def benchmark_dataset(
    runs: Path, dataset: str, batch_size: int, repeats: int, max_timing_examples: Optional[int]
) -> dict[str, Any]:
    sets = evaluation_sets(dataset)
    timing_texts = [e.text for e in sets["test"][0]][:max_timing_examples]
    found: dict[str, Any] = {"evaluation": {name: what for name, (_, what) in sets.items()}}
    found["timing"] = {
        "texts": f"the first {len(timing_texts):,} of the {len(sets['test'][0]):,} test texts",
        "batch_size": batch_size,
        "threads": 1,
        "order": f"models in turn (round-robin), best of {repeats}",
    }
    archive_files: dict[str, Path] = {}
    archives: dict[str, Archive] = {}
    for model, run in model_runs(dataset).items():
        archive_file = runs / "dan" / run.folder / "model.tar.gz"
        if not archive_file.exists():
            print(f"{dataset}: no {archive_file}, {model} left out", flush=True)
            continue
        archive_files[model] = archive_file
        print(f"{dataset}: {model} accuracy ...", flush=True)
        archives[model] = load_archive(str(archive_file))
        found[model] = {"run": run.folder, "config": run.config, **accuracies(archives[model], sets, batch_size)}
        print(f"  {json.dumps(found[model])}", flush=True)
    print(f"{dataset}: timing {', '.join(archives)} on {len(timing_texts)} texts, best of {repeats} ...", flush=True)
    for model, speed in speeds(archives, timing_texts, batch_size, repeats).items():
        found[model].update(speed)
        print(f"  {model}: {json.dumps(speed)}", flush=True)
    if "dan_scratch" in archives:
        scratch = archives["dan_scratch"]
        found["fasttext_style_logreg"] = linear_baseline(
            scratch, training_examples(scratch), sets, timing_texts, batch_size, repeats
        )
        print(f"{dataset}: linear baseline {json.dumps(found['fasttext_style_logreg'])}", flush=True)
    archives.clear()  # free the memory before pruning
    best = next((m for m in ("dan_kd_ft", "dan_kd") if m in archive_files), None)
    if best is not None:
        print(f"{dataset}: pruning {best} ...", flush=True)
        found["pruning"] = {
            "model": best,
            "curve": pruning_curve(archive_files[best], sets, timing_texts, batch_size, repeats),
        }
    found["aims"] = aims(found)
    return found


def plot_pruning(results: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 4))
    for dataset, found in results["datasets"].items():
        if "pruning" not in found:
            continue
        curve = found["pruning"]["curve"]
        axis.plot(
            [c["params"] / 1e6 for c in curve],
            [100 * c["accuracy"] for c in curve],
            marker="o",
            label=f"{dataset} {found['pruning']['model']}",
        )
        if "teacher" in found:
            axis.axhline(
                100 * found["teacher"]["accuracy"], linestyle="--", linewidth=0.8, color=axis.lines[-1].get_color()
            )
    axis.set_xscale("log")
    axis.set_xlabel("DAN parameters after n-gram pruning (millions, log scale)")
    axis.set_ylabel("test accuracy (%)")
    axis.set_title("Accuracy vs size after pruning rare n-grams (dashed: teacher)")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def write_report(results: dict[str, Any]) -> None:
    rows: dict[str, dict[str, Any]] = {}
    for dataset, found in results["datasets"].items():
        for model in tuple(model_runs(dataset)) + ("fasttext_style_logreg",):
            if model in found:
                row = dict(found[model])
                teacher = found.get("teacher")
                if teacher and "cpu_examples_per_s" in row:
                    row["speedup"] = row["cpu_examples_per_s"] / teacher["cpu_examples_per_s"]
                if teacher and "direct_cpu_examples_per_s" in row:
                    row["direct_speedup"] = row["direct_cpu_examples_per_s"] / teacher["direct_cpu_examples_per_s"]
                rows[f"{dataset} {model}"] = row
    columns = [
        "accuracy",
        "dev_accuracy",
        "params",
        "cpu_examples_per_s",
        "tokenize_examples_per_s",
        "speedup",
        "direct_cpu_examples_per_s",
        "direct_speedup",
    ]
    settings = results["settings"]
    missing = [d for d in DATASETS if d not in results["datasets"]]
    note = (
        f"Accuracy on each dataset's test set (see `evaluation` in dan.json; SST-2 dev and TREC's held-out "
        f"dev beside it). Speed: one CPU thread, batches of {settings['batch_size']}, the models of a "
        f"dataset timed in turn on the same test texts, best of {settings.get('repeats', 1)}; "
        "cpu_examples_per_s includes tokenization "
        f"(tokenize_examples_per_s alone), direct_* skips AllenNLP's per-instance objects (same predictions); "
        f"{results['hardware']}. Training was shortened for a 2-core CPU (see the configs' headers and "
        f"docs/dan.md); the `sst2` and `imdb` teachers were fine-tuned on a GPU (all 67,349 phrases at 64 "
        f"word pieces; 22,917 reviews at 512), `sst2_cpu` and `imdb_cpu` are the CPU-sized setups (10,000 "
        f"phrases; 12,500 reviews at 256 pieces). Not measured (no runs): {', '.join(missing) or 'none'}."
    )
    table = markdown_table(rows, columns, "dataset / model")
    aim_rows: dict[str, dict[str, Any]] = {}
    for dataset, found in results["datasets"].items():
        for student, aim in found.get("aims", {}).items():
            aim_rows[f"{dataset} {student}"] = {
                "% of teacher accuracy (aim >= 97)": 100 * aim["fraction_of_teacher_accuracy"],
                "points over scratch (aim >= 1.0)": aim.get("points_over_scratch"),
                "speedup (aim >= 30x)": aim["speedup_over_teacher"],
                "direct speedup": aim["direct_speedup_over_teacher"],
                "met": ", ".join(name for name, key in AIM_NAMES if aim.get(key)) or "none",
                "not met": ", ".join(name for name, key in AIM_NAMES if aim.get(key) is False) or "none",
            }
    if aim_rows:
        table += "\nAims\n\n" + markdown_table(aim_rows, list(next(iter(aim_rows.values()))), "dataset / student")
    for dataset, found in results["datasets"].items():
        if "pruning" in found:
            curve = {f"{c['kept_ngrams']:,} n-grams": c for c in found["pruning"]["curve"]}
            table += f"\n{dataset}: {found['pruning']['model']} after pruning\n\n" + markdown_table(
                curve, ["params", "accuracy", "cpu_examples_per_s"], "kept"
            )
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "dan.md").write_text(table + f"\n{note}\n")
    print(table + f"\n{note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", default="runs")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3, help="timed passes per model; the best counts")
    parser.add_argument(
        "--max-timing-examples",
        type=int,
        default=None,
        help="time on the first N test texts only (accuracy always uses every text)",
    )
    parser.add_argument("--report-only", action="store_true", help="rewrite dan.md and the plot from dan.json")
    args = parser.parse_args()
    torch.set_num_threads(1)
    path = RESULTS / "dan.json"
    results = json.loads(path.read_text()) if path.exists() else {"datasets": {}}
    if args.report_only:
        write_report(results)
        plot_pruning(results, RESULTS / "dan_pruning.png")
        return
    results["hardware"] = hardware_description()
    results["settings"] = {
        "batch_size": args.batch_size,
        "threads": 1,
        "repeats": args.repeats,
        "max_timing_examples": args.max_timing_examples,
    }
    for dataset in args.datasets:
        if (Path(args.runs) / "dan" / run_folder(dataset)).exists():
            results["datasets"][dataset] = benchmark_dataset(
                Path(args.runs), dataset, args.batch_size, args.repeats, args.max_timing_examples
            )
        else:
            print(f"{dataset}: no runs under {args.runs}/dan/{run_folder(dataset)}, kept as it was", flush=True)
    order = {name: i for i, name in enumerate(DATASETS)}  # tables in a fixed order, whatever ran last
    results["datasets"] = dict(sorted(results["datasets"].items(), key=lambda item: order.get(item[0], len(order))))
    RESULTS.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    write_report(results)
    plot_pruning(results, RESULTS / "dan_pruning.png")


if __name__ == "__main__":
    main()
