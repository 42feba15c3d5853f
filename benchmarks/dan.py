"""Sparse distillation: accuracy, size and one-thread CPU speed of the MiniLM teacher, the n-gram
DAN (scratch, KD, KD+FT), a fastText-style linear baseline over the same n-grams, and the DAN's
accuracy after n-gram pruning (the seed paper's Figure 5), per dataset.

Runs are expected at RUNS/dan/<dataset>/{teacher,scratch,kd,kd_ft}/model.tar.gz (see
benchmarks/runs/dan.sh). Every model of a dataset is timed in this one process with one torch
thread, on the same texts, in batches of --batch-size: `cpu_examples_per_s` covers tokenization +
indexing + the forward pass through AllenNLP's own Instance/Batch path (what `allennlp predict`
does); `tokenize_examples_per_s` the tokenization + indexing alone; `direct_cpu_examples_per_s`
the same work without AllenNLP's per-instance objects (the teacher's fast tokenizer on a whole
batch, the DAN's analyzer + a dict lookup), checked to give the same predictions.

    python benchmarks/dan.py [--runs runs] [--datasets sst2 trec imdb] [--batch-size 32]

Writes benchmarks/results/dan.json (datasets not re-run are kept from an earlier file), dan.md
and dan_pruning.png.
"""
import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import numpy
import torch
from allennlp.data import Batch
from allennlp.models.archival import Archive, load_archive

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import hardware_description, markdown_table  # noqa: E402

import green_nlp  # noqa: E402,F401  (registers the components)
from green_nlp.commands.prune_ngrams import prune_archive  # noqa: E402
from green_nlp.data_paths import data_path  # noqa: E402
from green_nlp.dataset_readers.text_classification import TextExample, read_examples, subsample  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
MODELS = ("teacher", "dan_scratch", "dan_kd", "dan_kd_ft")
RUN_FOLDER = {"teacher": "teacher", "dan_scratch": "scratch", "dan_kd": "kd", "dan_kd_ft": "kd_ft"}
PRUNE_FRACTIONS = (1.0, 0.5, 0.25, 0.1, 0.03, 0.01, 0.003)


def evaluation_sets(dataset: str) -> Dict[str, Tuple[List[TextExample], str]]:
    """name -> (labeled examples, what they are). `test` is the figure reported as `accuracy`."""
    if dataset == "sst2":
        root = data_path("cls", "sst2")
        return {"test": (list(read_examples(root / "test.tsv")), "SST-2 test, 1,821 sentences (labels public here)"),
                "dev": (list(read_examples(root / "dev.tsv")), "SST-2 dev, 872 sentences")}
    if dataset == "trec":
        return {"test": (list(read_examples(data_path("cls", "trec", "test.txt"))), "TREC test, 500 questions, 6 classes")}
    if dataset == "imdb":
        sample = list(subsample(read_examples(data_path("cls", "imdb", "test.jsonl.gz")), every=25))
        return {"test": (sample, f"IMDB test, every 25th review ({len(sample)} of 25,000; CPU time)")}
    raise ValueError(f"unknown dataset {dataset}")


def _tensors(archive: Archive, texts: List[str]) -> Dict[str, Any]:
    reader = archive.validation_dataset_reader
    instances = [reader.text_to_instance(text) for text in texts]
    for instance in instances:
        reader.apply_token_indexers(instance)
    batch = Batch(instances)
    batch.index_instances(archive.model.vocab)
    return batch.as_tensor_dict()


def run_model(archive: Archive, texts: List[str], batch_size: int) -> Tuple[List[str], float, float]:
    """Predicted labels, end-to-end seconds, tokenization-only seconds (one warm-up batch first)."""
    model = archive.model.eval()
    namespace = getattr(model, "_label_namespace", "labels")
    names = model.vocab.get_index_to_token_vocabulary(namespace)
    batches = [texts[i:i + batch_size] for i in range(0, len(texts), batch_size)]
    with torch.no_grad():
        model(**_tensors(archive, batches[0]))
        start = time.perf_counter()
        for batch in batches:
            _tensors(archive, batch)
        tokenize_seconds = time.perf_counter() - start
        predicted: List[str] = []
        start = time.perf_counter()
        for batch in batches:
            logits = model(**_tensors(archive, batch))["logits"]
            predicted += [names[int(i)] for i in logits.argmax(-1)]
        total_seconds = time.perf_counter() - start
    return predicted, total_seconds, tokenize_seconds


def direct_tensors(archive: Archive, texts: List[str]) -> Dict[str, Any]:
    """The same inputs without AllenNLP's Instance/Batch machinery (a deployment would do this):
    the teacher's HF fast tokenizer on the whole batch; the DAN's analyzer + a dict lookup."""
    model = archive.model
    if hasattr(model, "ngram_embedding"):
        lookup = model.vocab.get_token_to_index_vocabulary(model._ngram_namespace)
        analyzer = archive.validation_dataset_reader.analyzer
        rows = [[lookup[g] for g in analyzer(text) if g in lookup] for text in texts]
        ngrams = torch.zeros(len(rows), max(1, max(len(r) for r in rows)), dtype=torch.long)
        for i, row in enumerate(rows):
            ngrams[i, :len(row)] = torch.tensor(row, dtype=torch.long)
        return {"ngrams": ngrams}
    tokenizer = archive.validation_dataset_reader._tokenizer
    encoded = tokenizer.tokenizer(texts, padding=True, truncation=True, max_length=tokenizer._max_length,
                                  return_tensors="pt")
    return {"tokens": {"tokens": {"token_ids": encoded["input_ids"], "mask": encoded["attention_mask"].bool(),
                                  "type_ids": encoded["token_type_ids"]}}}


def run_direct(archive: Archive, texts: List[str], batch_size: int) -> Tuple[List[int], float]:
    model = archive.model.eval()
    batches = [texts[i:i + batch_size] for i in range(0, len(texts), batch_size)]
    predicted: List[int] = []
    with torch.no_grad():
        model(**direct_tensors(archive, batches[0]))
        start = time.perf_counter()
        for batch in batches:
            predicted += model(**direct_tensors(archive, batch))["logits"].argmax(-1).tolist()
        seconds = time.perf_counter() - start
    return predicted, seconds


def parameters(model: torch.nn.Module) -> Dict[str, int]:
    total = sum(p.numel() for p in model.parameters())
    embedding = getattr(model, "ngram_embedding", None)
    result = {"params": total}
    if embedding is not None:
        result["embedding_params"] = embedding.weight.numel()
        result["dense_params"] = total - embedding.weight.numel()
    return result


def evaluate(archive: Archive, sets: Dict[str, Tuple[List[TextExample], str]], batch_size: int) -> Dict[str, Any]:
    result: Dict[str, Any] = parameters(archive.model)
    for name, (examples, _) in sets.items():
        predicted, seconds, tokenize_seconds = run_model(archive, [e.text for e in examples], batch_size)
        accuracy = float(numpy.mean([p == e.label for p, e in zip(predicted, examples)]))
        if name == "test":
            result.update(accuracy=accuracy, cpu_examples_per_s=len(examples) / seconds,
                          tokenize_examples_per_s=len(examples) / tokenize_seconds,
                          model_examples_per_s=len(examples) / max(1e-9, seconds - tokenize_seconds))
            direct, direct_seconds = run_direct(archive, [e.text for e in examples], batch_size)
            names = archive.model.vocab.get_index_to_token_vocabulary(getattr(archive.model, "_label_namespace",
                                                                              "labels"))
            same = [names[i] for i in direct] == predicted
            result.update(direct_cpu_examples_per_s=len(examples) / direct_seconds, direct_same_predictions=same)
        else:
            result[f"{name}_accuracy"] = accuracy
    return result


def linear_baseline(archive: Archive, train: List[TextExample], sets: Dict[str, Any]) -> Dict[str, Any]:
    """fastText-style: a linear classifier over the DAN's own n-grams (L2-normalised counts)."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import Normalizer

    vocab = archive.model.vocab
    ngrams = [vocab.get_token_from_index(i, "ngrams") for i in range(2, vocab.get_vocab_size("ngrams"))]
    pipeline = make_pipeline(CountVectorizer(analyzer=archive.dataset_reader.analyzer, vocabulary=ngrams),
                             Normalizer(), LogisticRegression(C=10.0, max_iter=2000))
    pipeline.fit([e.text for e in train], [e.label for e in train])
    classes = len(pipeline[-1].classes_)
    result: Dict[str, Any] = {"params": len(ngrams) * (classes if classes > 2 else 1) + (classes if classes > 2 else 1)}
    for name, (examples, _) in sets.items():
        texts = [e.text for e in examples]
        start = time.perf_counter()
        predicted = pipeline.predict(texts)
        seconds = time.perf_counter() - start
        accuracy = float(numpy.mean([p == e.label for p, e in zip(predicted, examples)]))
        if name == "test":
            result.update(accuracy=accuracy, cpu_examples_per_s=len(texts) / seconds)
        else:
            result[f"{name}_accuracy"] = accuracy
    return result


def training_examples(archive: Archive) -> List[TextExample]:
    """The DAN(scratch) run's labeled training examples, read as its config read them."""
    reader = archive.dataset_reader
    path = archive.config["train_data_path"]
    examples = (e for e in read_examples(path, reader._format, reader._fine_labels) if e.label is not None)
    return list(subsample(examples, reader._sample_every, reader._max_examples))


def pruning_curve(archive_file: Path, sets: Dict[str, Any], batch_size: int) -> List[Dict[str, Any]]:
    archive = load_archive(str(archive_file))
    size = archive.model.vocab.get_vocab_size("ngrams") - 2
    test = {"test": sets["test"]}
    curve = []
    with tempfile.TemporaryDirectory() as directory:
        for fraction in PRUNE_FRACTIONS:
            keep = max(1, int(size * fraction))
            pruned = Path(directory) / f"pruned_{keep}.tar.gz"
            prune_archive(str(archive_file), keep, str(pruned))
            result = evaluate(load_archive(str(pruned)), test, batch_size)
            curve.append({"kept_ngrams": keep, "fraction": fraction, "params": result["params"],
                          "accuracy": result["accuracy"], "cpu_examples_per_s": result["cpu_examples_per_s"]})
            print(f"  pruned to {keep:,} n-grams: accuracy {result['accuracy']:.4f}", flush=True)
    return curve


def aims(models: Dict[str, Any]) -> Dict[str, Any]:
    teacher, scratch = models.get("teacher"), models.get("dan_scratch")
    out: Dict[str, Any] = {}
    for student in ("dan_kd", "dan_kd_ft"):
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


def benchmark_dataset(runs: Path, dataset: str, batch_size: int) -> Dict[str, Any]:
    sets = evaluation_sets(dataset)
    found: Dict[str, Any] = {"evaluation": {name: what for name, (_, what) in sets.items()}}
    archives: Dict[str, Path] = {}
    for model in MODELS:
        archive_file = runs / "dan" / dataset / RUN_FOLDER[model] / "model.tar.gz"
        if not archive_file.exists():
            print(f"{dataset}: no {archive_file}, {model} left out", flush=True)
            continue
        archives[model] = archive_file
        print(f"{dataset}: {model} ...", flush=True)
        found[model] = evaluate(load_archive(str(archive_file)), sets, batch_size)
        print(f"  {json.dumps(found[model])}", flush=True)
    if "dan_scratch" in archives:
        scratch = load_archive(str(archives["dan_scratch"]))
        found["fasttext_style_logreg"] = linear_baseline(scratch, training_examples(scratch), sets)
        print(f"{dataset}: linear baseline {json.dumps(found['fasttext_style_logreg'])}", flush=True)
    best = next((m for m in ("dan_kd_ft", "dan_kd") if m in archives), None)
    if best is not None:
        print(f"{dataset}: pruning {best} ...", flush=True)
        found["pruning"] = {"model": best, "curve": pruning_curve(archives[best], sets, batch_size)}
    found["aims"] = aims(found)
    return found


def plot_pruning(results: Dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 4))
    for dataset, found in results["datasets"].items():
        if "pruning" not in found:
            continue
        curve = found["pruning"]["curve"]
        axis.plot([c["params"] / 1e6 for c in curve], [100 * c["accuracy"] for c in curve], marker="o",
                  label=f"{dataset} {found['pruning']['model']}")
        if "teacher" in found:
            axis.axhline(100 * found["teacher"]["accuracy"], linestyle="--", linewidth=0.8,
                         color=axis.lines[-1].get_color())
    axis.set_xscale("log")
    axis.set_xlabel("DAN parameters after n-gram pruning (millions, log scale)")
    axis.set_ylabel("test accuracy (%)")
    axis.set_title("Accuracy vs size after pruning rare n-grams (dashed: teacher)")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def write_report(results: Dict[str, Any]) -> None:
    rows: Dict[str, Dict[str, Any]] = {}
    for dataset, found in results["datasets"].items():
        for model in MODELS + ("fasttext_style_logreg",):
            if model in found:
                row = dict(found[model])
                teacher = found.get("teacher")
                if teacher and "cpu_examples_per_s" in row:
                    row["speedup"] = row["cpu_examples_per_s"] / teacher["cpu_examples_per_s"]
                if teacher and "direct_cpu_examples_per_s" in row:
                    row["direct_speedup"] = row["direct_cpu_examples_per_s"] / teacher["direct_cpu_examples_per_s"]
                rows[f"{dataset} {model}"] = row
    columns = ["accuracy", "dev_accuracy", "params", "cpu_examples_per_s", "tokenize_examples_per_s", "speedup",
               "direct_cpu_examples_per_s", "direct_speedup"]
    note = (f"Accuracy on each dataset's test set (see `evaluation` in dan.json), one CPU thread, batches of "
            f"{results['settings']['batch_size']}, tokenization included in cpu_examples_per_s; {results['hardware']}. "
            "Training was shortened for a 2-core CPU (see the configs' headers and docs/dan.md).")
    table = markdown_table(rows, columns, "dataset / model")
    for dataset, found in results["datasets"].items():
        if "pruning" in found:
            curve = {f"{c['kept_ngrams']:,} n-grams": c for c in found["pruning"]["curve"]}
            table += f"\n{dataset}: {found['pruning']['model']} after pruning\n\n" + markdown_table(
                curve, ["params", "accuracy", "cpu_examples_per_s"], "kept")
        if found.get("aims"):
            table += f"\n{dataset} aims: `{json.dumps(found['aims'])}`\n"
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "dan.md").write_text(table + f"\n{note}\n")
    print(table + f"\n{note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", default="runs")
    parser.add_argument("--datasets", nargs="+", default=["sst2", "trec", "imdb"])
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    torch.set_num_threads(1)
    path = RESULTS / "dan.json"
    results = json.loads(path.read_text()) if path.exists() else {"datasets": {}}
    results["hardware"] = hardware_description()
    results["settings"] = {"batch_size": args.batch_size, "threads": 1}
    for dataset in args.datasets:
        if (Path(args.runs) / "dan" / dataset).exists():
            results["datasets"][dataset] = benchmark_dataset(Path(args.runs), dataset, args.batch_size)
        else:
            print(f"{dataset}: no runs under {args.runs}/dan/{dataset}, kept as it was", flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    write_report(results)
    plot_pruning(results, RESULTS / "dan_pruning.png")


if __name__ == "__main__":
    main()
