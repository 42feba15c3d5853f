"""Does the IMDB teacher lose accuracy by reading only its first 256 word pieces?

The same trained weights are scored on held-out IMDB training reviews twice: as archived
(inputs cut at 256 word pieces) and with AllenNLP's own long-input support switched on by
config overrides (tokenizer cut at --max-length pieces, indexer and embedder folding them into
256-piece segments that the encoder reads separately; the mean pooling then spans the whole
input). One CPU thread, documents sorted by length and batched, so examples/s is comparable.

    python -m experiments.dan_teacher_long_inputs.score [--runs runs] [--max-length 1024] [--every 12]

Writes experiments/dan_teacher_long_inputs/results/dan_teacher_long_inputs.{json,md}.
"""

import argparse
import json
import time
from pathlib import Path
from typing import Optional

import torch
from allennlp.models.archival import load_archive

from green_nlp.data.long_inputs import long_input_overrides
from green_nlp.dataset_readers.text_classification import TextExample, read_examples, subsample
from green_nlp.settings import data_path

SEGMENT = 256  # the length the teacher was trained with
RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts


def score(
    archive_file: Path, examples: list[TextExample], overrides: Optional[dict[str, int]], batch_size: int
) -> dict[str, float]:
    archive = load_archive(str(archive_file), overrides=json.dumps(overrides) if overrides else "")
    model, reader = archive.model.eval(), archive.validation_dataset_reader
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].text))
    correct, pieces = 0, 0
    start = time.perf_counter()
    with torch.no_grad():
        for first in range(0, len(order), batch_size):
            batch = [examples[i] for i in order[first : first + batch_size]]
            instances = [reader.text_to_instance(example.text) for example in batch]
            for instance in instances:
                reader.apply_token_indexers(instance)
                pieces += len(instance["tokens"])
            for example, output in zip(batch, model.forward_on_instances(instances)):
                correct += output["label"] == example.label
    seconds = time.perf_counter() - start
    return {
        "accuracy": correct / len(examples),
        "cpu_examples_per_s": len(examples) / seconds,
        "mean_word_pieces": pieces / len(examples),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", default="runs")
    parser.add_argument("--max-length", type=int, default=1024)
    parser.add_argument("--every", type=int, default=12, help="every n-th training review ...")
    parser.add_argument(
        "--offset", type=int, default=7, help="... from this index (7: the IMDB runs' validation reviews)"
    )
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()
    torch.set_num_threads(1)
    archive_file = Path(args.runs) / "dan" / "imdb" / "teacher" / "model.tar.gz"
    examples = list(
        subsample(read_examples(data_path("cls", "imdb", "train.jsonl.gz")), args.every, offset=args.offset)
    )
    rows = {
        f"first {SEGMENT} word pieces (as trained)": score(archive_file, examples, None, args.batch_size),
        f"first {args.max_length} word pieces in {SEGMENT}-piece segments": score(
            archive_file, examples, long_input_overrides(args.max_length, SEGMENT), args.batch_size
        ),
    }
    result = {
        "archive": "dan/imdb/teacher/model.tar.gz",
        "reviews": len(examples),
        "sample": f"IMDB training reviews, every {args.every}th from index {args.offset}",
        "threads": 1,
        "batch_size": args.batch_size,
        "rows": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "dan_teacher_long_inputs.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        f"IMDB teacher, same weights, {len(examples)} held-out training reviews ({result['sample']})",
        "",
        "| teacher input | accuracy | mean word pieces | cpu_examples_per_s |",
        "|---|---|---|---|",
    ]
    for name, row in rows.items():
        lines.append(
            f"| {name} | {row['accuracy']:.3f} | {row['mean_word_pieces']:.0f} | {row['cpu_examples_per_s']:.2f} |"
        )
    (RESULTS / "dan_teacher_long_inputs.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
