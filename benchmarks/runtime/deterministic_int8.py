"""Per-call (before) against per-row (after, `green_nlp.export.deterministic_int8`) int8 graphs of the
shipped models, in one run on one thread: parser tokens/s and LAS on UD English-EWT test (gold
tokens, batch 32), classifier texts/s (batch 1 and 32) and accuracy on SST-2 test.

    OMP_NUM_THREADS=1 python -m benchmarks.runtime.deterministic_int8 --before-rev REV [--sentences N]

REV: a git revision whose pretrained/*/model.int8.onnx are the per-call graphs. Prints one line per row.
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import REPO
from green_nlp.runtime import load
from green_nlp.runtime.model_folder import record_file_hashes
from green_nlp.settings import data_path


def folder_at(rev: str, name: str, scratch: Path) -> Path:
    target = scratch / name
    shutil.copytree(REPO / "pretrained" / name, target)
    graph = subprocess.run(
        ["git", "show", f"{rev}:pretrained/{name}/model.int8.onnx"], cwd=REPO, check=True, capture_output=True
    )
    (target / "model.int8.onnx").write_bytes(graph.stdout)
    record_file_hashes(target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-rev", required=True)
    parser.add_argument("--sentences", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "scripts"))
    from pretrained_parser import conllu_sentences  # noqa: E402
    from pretrained_sentiment import sst2_texts  # noqa: E402

    test = conllu_sentences(data_path("ud", "UD_English-EWT", "en_ewt-ud-test.conllu"))[: args.sentences]
    texts, gold = sst2_texts(data_path("cls", "sst2"), "test")
    with tempfile.TemporaryDirectory() as scratch:
        parsers = {
            "before": load(folder_at(args.before_rev, "en-ewt-parser", Path(scratch)), threads=1),
            "after": load(REPO / "pretrained" / "en-ewt-parser", threads=1),
        }
        dans = {
            "before": load(folder_at(args.before_rev, "en-sst2-sentiment", Path(scratch)), threads=1),
            "after": load(REPO / "pretrained" / "en-sst2-sentiment", threads=1),
        }
        inputs = [(words, None) for words, *_ in test]
        words = sum(len(w) for w, _ in inputs)
        best = {}
        answers = {}
        for _ in range(args.repeats):  # round robin, so a busy spell does not fall on one side
            for side in ("before", "after"):
                start = time.perf_counter()
                answers[side] = list(parsers[side].parse_sentences(inputs, 32))
                best[("parser", side)] = min(best.get(("parser", side), 1e9), time.perf_counter() - start)
                for size in (1, 32):
                    start = time.perf_counter()
                    answers[(side, size)] = list(dans[side].classify_many(texts, batch_size=size))
                    best[(size, side)] = min(best.get((size, side), 1e9), time.perf_counter() - start)
        for side in ("before", "after"):
            las = sum(
                h == gh and d == gd
                for p, (_, gh, gd, _) in zip(answers[side], test)
                for h, d, gh, gd in zip(p.heads, p.deprels, gh, gd)
            )
            print(
                f"parser {side}: {words / best[('parser', side)]:,.0f} tokens/s, "
                f"LAS {100 * las / words:.2f} ({words} words)"
            )
            for size in (1, 32):
                correct = sum(c.label == g for c, g in zip(answers[(side, size)], gold))
                print(
                    f"classifier {side} batch {size}: {len(texts) / best[(size, side)]:,.0f} texts/s, "
                    f"accuracy {100 * correct / len(gold):.2f}"
                )


if __name__ == "__main__":
    main()
