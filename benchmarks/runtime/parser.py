"""Cold start, speed, accuracy, memory and size of one raw-text biaffine parser served five ways on
one CPU thread, on UD English-EWT test, all measured in the same run (issue 30):

- `allennlp_predictor`: AllenNLP's `green_dependency_parser` predictor, `predict_json` at batch 1
  and `predict_batch_json` at batch 32, on `{"words": [...]}` (the predictor takes pre-tokenized
  words as JSON; no spaCy), as `allennlp predict` calls it;
- `torch`: the model called directly: the reader's `text_to_instance`, AllenNLP's `Batch`
  tensorization, `model(**tensors)` and `make_output_human_readable` under `torch.inference_mode`;
- `torch_int8`: the same on `green_nlp.nn.quantization.quantize_for_cpu(model)` (dynamic int8);
- `onnx_fp32` / `onnx_int8`: the torch-free runtime (`green_nlp.runtime`,
  `parse_sentences(..., batch_size)`) on the two graphs `export_archive` writes.

Every path gets the same words (the gold tokenization, without the gold UPOS: the raw-text model
predicts UPOS) and the same batches, in three settings: `b1` (one sentence per call), `b32`
(consecutive batches of 32 in file order, as `allennlp predict` and `green-nlp parse` batch a file;
inside a batch AllenNLP pads in input order and the runtime sorts by length first, the same
padding) and `b32-sorted` (all sentences sorted by length before batching, as AllenNLP's bucket
sampler does in training). Every pass turns words into heads, relations and UPOS: indexing, the
model, tree and label decoding.

    python -m benchmarks.runtime.parser [--archive runs/shipped/en_ewt_parser/model.tar.gz] [--sentences N]
                                 [--repeats 3] [--batch1-sentences N] [--runtime-venv PATH]
    python -m benchmarks.runtime.parser --report-only   # rewrite runtime.md from the saved runtime.json

Run from the repository root. Parts (`--parts`, all by default):

1. `cold_start`, median of 3 runs after one untimed run (so the OS file cache is warm for all):
   process start to the first line on stdout of `allennlp predict ARCHIVE one_line.txt
   --include-package green_nlp --silent --output-file /dev/stdout` (without `--output-file`,
   `--silent` makes `allennlp predict` print a notice and exit after loading, before predicting)
   and of `green-nlp parse FOLDER one_line.txt` (int8, as shipped, and fp32), plus
   `python -c "import green_nlp.runtime"` and `import spacy` alone; the same from a runtime-only
   venv given with `--runtime-venv`. Every process runs with OMP_NUM_THREADS=1 and
   PYTHONUNBUFFERED=1; the untimed run gives its peak RSS (`RSS_LAUNCHER`);
2. `speed` (with accuracy): passes round-robin over paths and settings, a warm-up on the first 64
   sentences, then `--repeats` timed passes, the fastest reported (wall clock; per CPU second of
   the process beside it); latency p50/p95 per sentence at b1 from that pass. Then accuracy of
   each path's b32 answers (UAS/LAS over all words, punctuation included, full relations; UPOS
   accuracy), whether its b1 and b32-sorted answers are the same, and the runtime's
   `int8_agreement` of the int8 graph with the fp32 graph;
3. `memory`: peak RSS of each path in a process of its own (`--memory-child`: load, then parse all
   the sentences at b32);
4. `sizes` on disk: the archive, the graphs, the exported folder, the training venv (`--training-venv`;
   by default the venv running this, else the clone's `.venv`; link resolved) and the `--runtime-venv`.

Writes benchmarks/results/runtime.json and runtime.md. This module is the entry point; each job is a
module of `benchmarks.runtime.parsing` (settings, gold, paths, speed, accuracy, processes,
cold_start, memory, disk, report). Only the standard library is imported at the top of each:
`--memory-child onnx_*` must not import torch.
"""

import argparse
import json
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.common import RESULTS, hardware_description  # no torch: see above
from benchmarks.runtime.parsing.accuracy import accuracy
from benchmarks.runtime.parsing.cold_start import cold_start, cold_start_commands, cold_start_ratios
from benchmarks.runtime.parsing.disk import disk_sizes
from benchmarks.runtime.parsing.gold import data_stats, read_gold
from benchmarks.runtime.parsing.memory import memory_child, peak_memory
from benchmarks.runtime.parsing.paths import load_paths
from benchmarks.runtime.parsing.report import aims, merged, write_report
from benchmarks.runtime.parsing.settings import (
    DEFAULT_ARCHIVE,
    FORMS,
    ONE_THREAD_ENV,
    PARTS,
    REPO_ROOT,
    SETTINGS,
    TEST_FILE_PARTS,
    shown_path,
)
from benchmarks.runtime.parsing.speed import measure_speed, speed_ratios

__all__ = ["FORMS", "SETTINGS", "aims", "cold_start_ratios", "main", "run"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--archive", type=Path, default=DEFAULT_ARCHIVE, help="a raw-text green_biaffine_parser archive"
    )
    parser.add_argument(
        "--folder",
        type=Path,
        default=None,
        help="its green-export folder with both graphs (default: export into a temporary folder)",
    )
    parser.add_argument(
        "--test-file",
        type=Path,
        default=None,
        help="CoNLL-U test file (default: $GREEN_NLP_DATA/ud/UD_English-EWT/en_ewt-ud-test.conllu)",
    )
    parser.add_argument("--sentences", type=int, default=None, help="the first N test sentences (default: all)")
    parser.add_argument(
        "--batch1-sentences", type=int, default=None, help="time batch 1 on the first N of them only (default: all)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="timed passes per path and batch size")
    parser.add_argument("--cold-start-repeats", type=int, default=3)
    parser.add_argument("--runtime-venv", type=Path, default=None, help="a runtime-only venv whose size to report")
    parser.add_argument(
        "--training-venv",
        type=Path,
        default=None,
        help="the training venv whose size to report (default: the venv running this, else the clone's .venv)",
    )
    parser.add_argument(
        "--classifier",
        nargs=2,
        type=Path,
        default=None,
        metavar=("ARCHIVE", "FOLDER"),
        help="also time the cold start of an n-gram DAN: its archive (allennlp predict) and its "
        "exported folder (green-nlp classify), e.g. pretrained/en-sst2-sentiment",
    )
    parser.add_argument(
        "--parts", nargs="+", choices=PARTS, default=list(PARTS), help="what to measure (speed includes accuracy)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the saved runtime.json's other parts and replace only the --parts measured now "
        "(each part records the date and load of its own run)",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="rewrite runtime.md (and the JSON's note) from the saved runtime.json, measuring nothing",
    )
    parser.add_argument("--memory-child", choices=FORMS, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    test_file = args.test_file
    if test_file is None:
        from green_nlp.settings import DATA_ENV_VAR, data_path

        test_file = data_path(*TEST_FILE_PARTS)
        if not test_file.is_file():
            sys.exit(
                f"UD English-EWT test file not found at {test_file}: set {DATA_ENV_VAR} to the shared data "
                "folder (holding ud/UD_English-EWT/) or pass --test-file"
            )
    elif not test_file.is_file():
        sys.exit(f"test file not found: {test_file}")
    if args.report_only:
        results = json.loads((args.out / "runtime.json").read_text())
        if "test_data" not in results:  # saved before the script recorded it: the same sentences, read again
            results["test_data"] = data_stats(read_gold(test_file, results["test_sentences"]))
        write_report(args.out, results)
        return
    if args.memory_child:
        memory_child(args.memory_child, args.archive, args.folder, test_file, args.sentences)
        return
    if not args.archive.is_file():
        sys.exit(f"archive not found: {args.archive} (train it, or pass --archive)")
    with tempfile.TemporaryDirectory(prefix="green_runtime_bench_") as temporary:
        results = run(args, test_file, Path(temporary))
    if args.merge and (args.out / "runtime.json").exists():
        results = merged(json.loads((args.out / "runtime.json").read_text()), results)
    write_report(args.out, results)


def run(args: argparse.Namespace, test_file: Path, temporary: Path) -> dict[str, Any]:
    load_start = os.getloadavg()
    import green_nlp

    for name, value in ONE_THREAD_ENV.items():
        os.environ.setdefault(name, value)
    gold = read_gold(test_file, args.sentences)
    words = [s["words"] for s in gold]
    folder = args.folder
    if folder is None:
        from green_nlp.export import export_archive

        folder = export_archive(args.archive, temporary / "export")
        print(f"exported {args.archive} to a temporary folder", file=sys.stderr)
    results: dict[str, Any] = {
        "benchmark": "runtime",
        "archive": shown_path(args.archive),
        "test_file": shown_path(test_file) if args.test_file else "/".join(TEST_FILE_PARTS[1:]),
        "test_sentences": len(gold),
        "test_tokens": sum(len(w) for w in words),
        "threads": 1,
        "repeats": args.repeats,
        "cold_start_repeats": args.cold_start_repeats,
        "batch1_sentences": args.batch1_sentences,
        "hardware": hardware_description(),
        "parts": list(args.parts),
        "test_data": data_stats(gold),
        "green_nlp_from_this_clone": Path(green_nlp.__file__).resolve().is_relative_to(REPO_ROOT),
    }
    if "cold_start" in args.parts:
        one_line = temporary / "one_line.txt"
        one_line.write_text((gold[0]["text"] or " ".join(words[0])) + "\n", encoding="utf-8")
        print("cold start ...", file=sys.stderr)
        classifier = tuple(path.resolve() for path in args.classifier) if args.classifier else None
        commands = cold_start_commands(args.archive, folder, one_line, args.runtime_venv, classifier)
        results["cold_start"] = cold = cold_start(commands, args.cold_start_repeats)
        results["cold_start_ratios"] = cold_start_ratios(cold)
    if "speed" in args.parts:
        print("speed ...", file=sys.stderr)
        paths = load_paths(args.archive, folder)
        rows, answers = measure_speed(paths, words, args.repeats, args.batch1_sentences)
        results["speed"] = rows
        results["speed_ratios"] = speed_ratios(rows)
        results["accuracy"] = accuracy(gold, answers)
        from green_nlp.runtime.parser_agreement import int8_agreement

        results["int8_agreement"] = int8_agreement(folder, [(w, None) for w in words], batch_size=32, threads=1)
    if "memory" in args.parts:
        print("memory ...", file=sys.stderr)
        results["memory"] = peak_memory(FORMS, args.archive, folder, test_file, args.sentences)
    if "sizes" in args.parts:
        results["sizes"] = disk_sizes(args.archive, folder, args.runtime_venv, args.training_venv)
    results["load_average"] = {"start": list(load_start), "end": list(os.getloadavg())}
    results["date"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return results


if __name__ == "__main__":
    main()
