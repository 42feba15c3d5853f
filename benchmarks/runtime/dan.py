"""Texts per second of one n-gram DAN served four ways, on one CPU thread, on SST-2's dev + test texts:
AllenNLP's `green_text_classifier` predictor, the torch model called directly (the reader's
analyzer + a dict lookup + `model(ngrams=...)`), and the torch-free runtime (`green_nlp.runtime`)
with the exported fp32 and int8 graphs, at batch 1 and 32.

    python -m benchmarks.runtime.dan runs/dan/sst2/scratch/model.tar.gz
    python -m benchmarks.runtime.dan ARCHIVE --folder EXPORTED_FOLDER   # reuse an export

Every figure is the best of `--repeats` passes over all texts (passes taken round-robin over the
ways, so a busy spell on a shared machine does not fall on one of them), as texts per CPU second of this
process (`time.process_time`; the machine may be shared, and CPU time is what a pass costs) and
per wall-clock second. The runtime's time is split into n-gram extraction and the onnxruntime call.
Besides `model.int8.onnx` as `green-export` writes it, the script times a variant whose n-gram
table is quantized too (`Gather` added to the quantized ops), to inform that choice. With
`--fasttext` and the `fasttext` package importable (PyPI `fasttext-numpy2`, benchmark-only), fastText
trained on SST-2's training set with word n-grams 1, 2 and 4 is timed and scored on the same texts,
as the peer. Results:
benchmarks/results/dan_runtime_speed.{json,md}.
"""

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy
import torch

import green_nlp
from benchmarks.common import RESULTS, hardware_description, write_results
from green_nlp.settings import data_path

BATCH_SIZES = (1, 32)


def sst2_examples(folder: Path) -> list[Any]:
    """SST-2 dev + test examples, or exit naming what is missing."""
    from green_nlp.dataset_readers.text_classification import read_examples

    files = [folder / "dev.tsv", folder / "test.tsv"]
    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        sys.exit(
            f"SST-2 data not found: {', '.join(missing)} (set GREEN_NLP_DATA to the data folder "
            "holding cls/sst2/, or pass --data-dir)"
        )
    return [example for path in files for example in read_examples(str(path))]


def best_rates(runs: dict[str, Callable[[], Any]], count: int, repeats: int) -> dict[str, dict[str, float]]:
    """Texts per CPU second and per wall second of each run, best of `repeats` passes after one
    warm-up pass. Passes go round-robin over the runs, so a busy spell on a shared machine falls on
    all of them rather than on whichever was being timed."""
    for run in runs.values():
        run()
    cpu = {name: float("inf") for name in runs}
    wall = dict(cpu)
    for _ in range(repeats):
        for name, run in runs.items():
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            run()
            cpu[name] = min(cpu[name], time.process_time() - start_cpu)
            wall[name] = min(wall[name], time.perf_counter() - start_wall)
    return {name: {"texts_per_cpu_s": count / cpu[name], "texts_per_wall_s": count / wall[name]} for name in runs}


def batches(texts: list[str], size: int) -> list[list[str]]:
    return [texts[i : i + size] for i in range(0, len(texts), size)]


def predictor_run(predictor: Any, texts: list[str], size: int) -> Callable[[], list[dict[str, Any]]]:
    if size == 1:
        return lambda: [predictor.predict_json({"text": text}) for text in texts]
    return lambda: [
        out
        for batch in batches(texts, size)
        for out in predictor.predict_batch_json([{"text": text} for text in batch])
    ]


def torch_direct_run(archive: Any, texts: list[str], size: int) -> Callable[[], list[int]]:
    """The model called directly on id tensors built with the reader's analyzer and a dict lookup."""
    model = archive.model.eval()
    lookup = model.vocab.get_token_to_index_vocabulary(model._ngram_namespace)
    analyzer = archive.validation_dataset_reader.analyzer

    def run() -> list[int]:
        predicted: list[int] = []
        with torch.no_grad():
            for batch in batches(texts, size):
                rows = [[lookup[g] for g in analyzer(text) if g in lookup] for text in batch]
                ngrams = torch.zeros(len(rows), max(1, max(len(r) for r in rows)), dtype=torch.long)
                for i, row in enumerate(rows):
                    ngrams[i, : len(row)] = torch.tensor(row, dtype=torch.long)
                predicted += model(ngrams=ngrams)["probs"].argmax(-1).tolist()
        return predicted

    return run


def runtime_part_runs(nlp: Any, texts: list[str], size: int) -> dict[str, Callable[[], Any]]:
    """The runtime's n-gram extraction alone, and its onnxruntime calls alone (on ids made beforehand)."""
    from green_nlp.runtime.ngram_extractor import pad

    groups = batches(texts, size)
    inputs = [pad(*nlp.extractor.ids(batch)) for batch in groups]
    return {
        "extract": lambda: [pad(*nlp.extractor.ids(batch)) for batch in groups],
        "onnxruntime": lambda: [nlp.session.run(nlp._outputs, {nlp._input: ids}) for ids in inputs],
    }


FASTTEXT_WORD_NGRAMS = (1, 2, 4)


def fasttext_models(train_file: Path) -> dict[int, Any]:
    """fastText (supervised, one thread, 5 epochs) trained on SST-2 train with each of
    FASTTEXT_WORD_NGRAMS; empty when the optional `fasttext` package (PyPI `fasttext-numpy2`) is
    not importable."""
    try:
        import fasttext  # optional, benchmark-only: not a dependency of green_nlp
    except ImportError:
        return {}
    from green_nlp.dataset_readers.text_classification import read_examples

    names = {"0": "negative", "1": "positive"}
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        for example in read_examples(str(train_file)):
            handle.write(f"__label__{names.get(example.label, example.label)} {example.text}\n")
    try:
        return {
            word_ngrams: fasttext.train_supervised(handle.name, wordNgrams=word_ngrams, epoch=5, thread=1, verbose=0)
            for word_ngrams in FASTTEXT_WORD_NGRAMS
        }
    finally:
        os.unlink(handle.name)


def fasttext_accuracy(model: Any, texts: list[str], gold: list[str]) -> float:
    predicted = [model.predict(text)[0][0][len("__label__") :] for text in texts]
    return sum(p == g for p, g in zip(predicted, gold)) / len(gold)


def fasttext_rows(train_file: Path, texts: list[str], gold: list[str], repeats: int) -> dict[str, dict[str, Any]]:
    """fastText (`fasttext_models`) timed predicting `texts` one by one (its Python API has no batch
    call), with its accuracy on them; empty when `fasttext` is not importable."""
    rows: dict[str, dict[str, Any]] = {}
    for word_ngrams, model in fasttext_models(train_file).items():
        rate = best_rates(
            {"fasttext": lambda model=model: [model.predict(text) for text in texts]}, len(texts), repeats
        )["fasttext"]
        rows[f"fasttext wordNgrams {word_ngrams} b1 (reference)"] = {
            "batch_size": 1,
            **rate,
            "accuracy": fasttext_accuracy(model, texts, gold),
            "settings": f"wordNgrams {word_ngrams}, dim 100, 5 epochs, 1 thread",
        }
    return rows


def quantize_with_table(folder: Path, out_dir: Path) -> Path:
    """`model.int8.onnx` as green-export writes it, but with the n-gram table (Gather) quantized too."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from green_nlp.export.dan import INT8_OP_TYPES

    path = out_dir / "model.int8_table.onnx"
    quantize_dynamic(
        str(folder / "model.onnx"), str(path), weight_type=QuantType.QInt8, op_types_to_quantize=INT8_OP_TYPES
    )
    return path


def compare(answers: list[dict[str, Any]], reference: list[dict[str, Any]]) -> dict[str, float]:
    """Share of texts with the same label, and the largest probability difference."""
    same = sum(a["label"] == b["label"] for a, b in zip(answers, reference)) / len(reference)
    worst = max(
        float(numpy.abs(numpy.array(a["probs"]) - numpy.array(b["probs"])).max()) for a, b in zip(answers, reference)
    )
    return {"same_label": same, "max_prob_diff": worst}


def runtimes(folder: Path, table_int8: Path) -> dict[str, Any]:
    """name -> (runtime on one thread, its ONNX file)."""
    from green_nlp.runtime import create_session
    from green_nlp.runtime.classifier import ClassifierRuntime
    from green_nlp.runtime.model_folder import model_file, read_meta

    meta = read_meta(folder)
    files = {
        "runtime_fp32": model_file(folder, meta, "fp32"),
        "runtime_int8": model_file(folder, meta, "int8"),
        "runtime_int8_table": table_int8,
    }
    return {
        name: (ClassifierRuntime(folder, meta, create_session(path, threads=1)), path) for name, path in files.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", help="an ngram_dan model.tar.gz")
    parser.add_argument("--folder", default=None, help="its green-export folder (default: export into a temp dir)")
    parser.add_argument(
        "--data-dir", default=None, help="folder with SST-2's dev.tsv and test.tsv (default: $GREEN_NLP_DATA/cls/sst2)"
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--fasttext", action="store_true", help="also time fastText, if importable")
    parser.add_argument("--output-dir", default=str(RESULTS))
    args = parser.parse_args()
    data_dir = Path(args.data_dir) if args.data_dir else Path(data_path("cls", "sst2"))
    examples = sst2_examples(data_dir)
    texts = [example.text for example in examples]
    torch.set_num_threads(1)
    green_nlp.register()
    from allennlp.models.archival import load_archive
    from allennlp.predictors import Predictor

    from green_nlp.export import export_archive

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(args.folder) if args.folder else export_archive(args.archive, Path(temporary) / "export")
        table_int8 = quantize_with_table(folder, Path(temporary))
        archive = load_archive(args.archive, cuda_device=-1)
        predictor = Predictor.from_archive(archive, "green_text_classifier")
        model = archive.model
        described = {
            "ngrams": model.vocab.get_vocab_size(model._ngram_namespace) - 2,
            "embedding_dim": model.ngram_embedding.embedding_dim,
            "hidden_dim": model.hidden.out_features,
            "labels": model.vocab.get_vocab_size(model._label_namespace),
            "parameters": sum(p.numel() for p in model.parameters()),
        }
        served = runtimes(folder, table_int8)
        loaded = {name: nlp for name, (nlp, _) in served.items()}
        sizes = {name: path.stat().st_size for name, (_, path) in served.items()}
        runs: dict[str, Callable[[], Any]] = {}
        for size in BATCH_SIZES:
            runs[f"allennlp_predictor b{size}"] = predictor_run(predictor, texts, size)
            runs[f"torch_direct b{size}"] = torch_direct_run(archive, texts, size)
            for name, nlp in loaded.items():
                runs[f"{name} b{size}"] = lambda nlp=nlp, size=size: list(nlp.classify_many(texts, batch_size=size))
                for part, run in runtime_part_runs(nlp, texts, size).items():
                    runs[f"{name} b{size} {part}"] = run
        rates = best_rates(runs, len(texts), args.repeats)
        rows: dict[str, dict[str, Any]] = {}
        for name, rate in rates.items():
            base, _, part = name.partition(" b")
            size_text, _, part = part.partition(" ")
            if part:
                rows[f"{base} b{size_text}"][f"{part}_texts_per_cpu_s"] = rate["texts_per_cpu_s"]
            else:
                rows[name] = {"batch_size": int(size_text), **rate}
        answers = {name: [c.to_json() for c in nlp.classify_many(texts, batch_size=32)] for name, nlp in loaded.items()}
        reference = predictor_run(predictor, texts, 32)()
    fastest = max(rows.values(), key=lambda row: row["texts_per_cpu_s"])
    fp32 = answers["runtime_fp32"]
    agreement = {
        "runtime_fp32_vs_predictor": compare(fp32, reference),
        "runtime_int8_vs_fp32": compare(answers["runtime_int8"], fp32),
        "runtime_int8_table_vs_fp32": compare(answers["runtime_int8_table"], fp32),
    }
    names = getattr(archive.validation_dataset_reader, "label_names", None) or {}
    gold = [names.get(example.label, example.label) for example in examples]
    accuracy = {name: sum(a["label"] == g for a, g in zip(out, gold)) / len(gold) for name, out in answers.items()}
    if args.fasttext:
        rows.update(fasttext_rows(data_dir / "train.tsv", texts, gold, args.repeats))
    for name, row in rows.items():
        if name.startswith("runtime_"):
            row["accuracy"] = accuracy[name.split(" ")[0]]
    results = {
        "archive": str(args.archive),
        "model": described,
        "texts": len(texts),
        "threads": 1,
        "repeats": args.repeats,
        "hardware": hardware_description(),
        "speed": rows,
        "agreement": agreement,
        "accuracy_dev_test": accuracy,
        "onnx_file_bytes": sizes,
        "fastest": fastest,
    }
    note = (
        f"`{args.archive}`: ngram_dan with {described['ngrams']:,} n-grams, d {described['embedding_dim']}, hidden "
        f"{described['hidden_dim']} ({described['parameters']:,} parameters). "
        f"SST-2 dev + test ({len(texts):,} texts), one thread, best of {args.repeats} passes; "
        f"{hardware_description()}. Texts per CPU second of the process (the machine may be shared) and per "
        "wall second; extract/onnxruntime: the runtime's two parts alone. "
        f"Runtime fp32 vs predictor: same label on {agreement['runtime_fp32_vs_predictor']['same_label']:.2%} of "
        f"texts, probabilities within {agreement['runtime_fp32_vs_predictor']['max_prob_diff']:.1e}; int8 "
        f"(green-export's: the ops in green_nlp.export.dan.INT8_OP_TYPES) agrees with fp32 on "
        f"{agreement['runtime_int8_vs_fp32']['same_label']:.2%}, int8 with the table quantized too on "
        f"{agreement['runtime_int8_table_vs_fp32']['same_label']:.2%}. "
        f"Dev + test accuracy: "
        + ", ".join(f"{k} {v:.4f}" for k, v in accuracy.items())
        + ". ONNX sizes (MB): "
        + ", ".join(f"{k} {v / 1e6:.1f}" for k, v in sizes.items())
        + "."
    )
    columns = [
        "batch_size",
        "texts_per_cpu_s",
        "texts_per_wall_s",
        "accuracy",
        "extract_texts_per_cpu_s",
        "onnxruntime_texts_per_cpu_s",
    ]
    write_results(Path(args.output_dir), "dan_runtime_speed", results, rows, columns, note, first_column="path")


if __name__ == "__main__":
    main()
