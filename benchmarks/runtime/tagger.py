"""Words per second of one LD-Net tagger served three ways, on one CPU thread: AllenNLP's
`green_sentence_tagger` predictor and the torch-free runtime (`green_nlp.runtime`) with the
exported fp32 and int8 graphs, at batch 1 and 32 sentences, on CoNLL-03 test sentences (raw text,
words joined by spaces; the fixture sentences when the data is absent). Also: how many records the
fp32 runtime gives exactly as the predictor does, the int8 graph's agreement with fp32 and the
sizes on disk.

    python -m benchmarks.runtime.tagger                         # the committed fixture tagger
    python -m benchmarks.runtime.tagger runs/ldnet/conll2003/pruned/model.tar.gz --sentences 500

Every figure is the best of `--repeats` passes (round-robin over the ways, see
`benchmarks.runtime.dan.best_rates`), per CPU second of this process and per wall-clock second. With
the fixture tagger (a few hundred parameters per layer) the model costs little and the figures
measure what happens around it. Results: benchmarks/results/tagger_runtime_speed.{json,md}.
"""

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

import green_nlp
from benchmarks.common import REPO, RESULTS, hardware_description, write_results
from benchmarks.runtime.dan import batches, best_rates
from green_nlp.settings import data_path

FIXTURE_TAGGER = REPO / "fixtures" / "ldnet" / "archives" / "tagger_origin.tar.gz"
FIXTURE_TEXT = [
    REPO / "fixtures" / "ldnet" / "data" / name
    for name in ("ner_conll2003_train.txt", "ner_conll2003_dev.txt", "ner_conll2003_test.txt")
]
BATCH_SIZES = (1, 32)


def test_sentences(limit: int) -> dict[str, Any]:
    """Words of the first `limit` CoNLL-03 test sentences, or of the fixture files without the data."""
    from green_nlp.dataset_readers.conll_tagging import read_columns

    path = data_path("ner", "conll2003", "eng.testb")
    files, source = ([path], "CoNLL-03 eng.testb") if path.is_file() else (FIXTURE_TEXT, "fixture sentences")
    sentences = [[row[0] for row in rows] for file in files for rows, _ in read_columns(str(file))][:limit]
    return {"source": source, "sentences": sentences}


def runs_for(predictor: Any, runtimes: dict[str, Any], lines: list[str]) -> dict[str, Callable[[], Any]]:
    runs: dict[str, Callable[[], Any]] = {}
    for size in BATCH_SIZES:
        chunks = batches(lines, size)
        runs[f"allennlp predictor, batch {size}"] = lambda chunks=chunks: [
            predictor.predict_batch_json([{"sentence": t} for t in c]) for c in chunks
        ]
        for precision, nlp in runtimes.items():
            runs[f"runtime {precision}, batch {size}"] = lambda nlp=nlp, size=size: list(
                nlp.tag_many(lines, batch_size=size)
            )
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", nargs="?", default=str(FIXTURE_TAGGER), help="an ld_net_tagger model.tar.gz")
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    green_nlp.register()
    torch.set_num_threads(1)
    from allennlp.predictors import Predictor

    from green_nlp.export import export_archive
    from green_nlp.runtime import load
    from green_nlp.runtime.tagger_agreement import int8_agreement

    data = test_sentences(args.sentences)
    lines = [" ".join(words) for words in data["sentences"]]
    with tempfile.TemporaryDirectory() as tmp:
        folder = export_archive(args.archive, Path(tmp) / "tagger")
        sizes = {name: (folder / name).stat().st_size for name in ("model.onnx", "model.int8.onnx", "green_model.json")}
        predictor = Predictor.from_path(args.archive, "green_sentence_tagger")
        runtimes = {precision: load(folder, precision=precision, threads=1) for precision in ("fp32", "int8")}
        expected = predictor.predict_batch_json([{"sentence": line} for line in lines])
        got = [result.to_json() for result in runtimes["fp32"].tag_many(lines)]
        words = sum(len(record["words"]) for record in expected)
        rates = best_rates(runs_for(predictor, runtimes, lines), words, args.repeats)
        agreement = int8_agreement(folder, [record["words"] for record in expected if record["words"]], threads=1)
    rows = {}
    for name, rate in rates.items():
        batch = name.rsplit(" ", 1)[1]
        baseline = rates[f"allennlp predictor, batch {batch}"]["texts_per_cpu_s"]
        rows[name] = {
            "words_per_cpu_s": rate["texts_per_cpu_s"],
            "words_per_wall_s": rate["texts_per_wall_s"],
            "x_predictor_cpu": rate["texts_per_cpu_s"] / baseline,
        }
    results = {
        "archive": Path(args.archive).name,
        "data": data["source"],
        "lines": len(lines),
        "words": words,
        "fp32_records_equal_to_predictor": sum(a == b for a, b in zip(got, expected)),
        "int8_agreement_with_fp32": agreement,
        "bytes": sizes,
        "hardware": hardware_description(),
        "threads": 1,
        "rows": rows,
    }
    note = (
        f"{Path(args.archive).name} on {len(lines)} lines of {data['source']} ({words:,} words), one CPU thread, "
        f"best of {args.repeats} passes; x_predictor_cpu: words per CPU second over the AllenNLP predictor's at "
        f"the same batch size. fp32 runtime records equal to the predictor's: "
        f"{results['fp32_records_equal_to_predictor']} of {len(lines)}. int8 vs fp32: "
        f"{agreement['tags']:.2%} of tags, {agreement['sentences']:.2%} of sentences, {agreement['spans']:.2%} of "
        f"spans kept. Sizes: model.onnx {sizes['model.onnx']:,} B, model.int8.onnx {sizes['model.int8.onnx']:,} B, "
        f"green_model.json {sizes['green_model.json']:,} B. {hardware_description()}."
    )
    write_results(
        RESULTS,
        "tagger_runtime_speed",
        results,
        rows,
        ["words_per_cpu_s", "words_per_wall_s", "x_predictor_cpu"],
        note,
        first_column="way",
    )


if __name__ == "__main__":
    main()
