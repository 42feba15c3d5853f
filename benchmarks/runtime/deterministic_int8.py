"""Per-call (before) against per-row (after, `green_nlp.export.deterministic_int8`) int8 graphs of the
shipped models, in one run on one thread: parser tokens/s and LAS on UD English-EWT test (gold
tokens, batch 32), classifier texts/s (batch 1 and 32) and accuracy on SST-2 test.

    OMP_NUM_THREADS=1 python -m benchmarks.runtime.deterministic_int8 --before-rev REV [--sentences N]
        [--json benchmarks/results/deterministic_int8.json] [--clip-sentences N]

REV: a git revision whose pretrained/*/model.int8.onnx are the per-call graphs. Prints one line per
row; --json also writes them (the cards' figures come from that file). --clip-sentences counts, on
that many UD English-EWT train sentences, the inputs the after graph clips to its fixed int8 ranges.
"""

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import REPO
from green_nlp.runtime import load
from green_nlp.runtime.model_folder import record_file_hashes
from green_nlp.settings import data_path


def folder_at(rev: str, name: str, scratch: Path) -> Path:
    """The shipped folder `name` as it was at `rev`, every file of it: the folders have changed
    layout since (the parser's character encoder is a graph of its own), so its graph alone would not
    fit today's metadata."""
    target = scratch / name
    target.mkdir(parents=True)
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{rev}:pretrained/{name}"], cwd=REPO, check=True, capture_output=True
    )
    for file_name in listed.stdout.decode().split():
        blob = subprocess.run(
            ["git", "show", f"{rev}:pretrained/{name}/{file_name}"], cwd=REPO, check=True, capture_output=True
        )
        (target / file_name).write_bytes(blob.stdout)
    record_file_hashes(target)
    return target


def clipped_inputs(folder: Path, sentences: list[list[str]]) -> dict[str, Any]:
    """Elements outside the Clip bounds `green_nlp.export.deterministic_int8` put before pinned
    LSTMs, over `sentences`, with the widest value seen and the bound."""
    import onnx
    import onnxruntime
    from onnx import numpy_helper

    model = onnx.load(str(folder / "model.int8.onnx"))
    values = {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}
    clips = [node for node in model.graph.node if node.op_type == "Clip" and node.output[0].endswith("_x_clipped")]
    for clip in clips:
        model.graph.output.append(onnx.helper.make_tensor_value_info(clip.input[0], onnx.TensorProto.FLOAT, None))
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    nlp = load(folder, threads=1)
    report: dict[str, Any] = {}
    for clip in clips:
        report[clip.input[0]] = {"low": float(values[clip.input[1]]), "high": float(values[clip.input[2]])}
        report[clip.input[0]].update(clipped=0, elements=0, seen_low=0.0, seen_high=0.0)
    for start in range(0, len(sentences), 64):
        batch = sentences[start : start + 64]
        outputs = session.run([clip.input[0] for clip in clips], nlp.inputs.feed(batch, [None] * len(batch)))
        for clip, x in zip(clips, outputs):
            entry = report[clip.input[0]]
            entry["clipped"] += int(((x < entry["low"]) | (x > entry["high"])).sum())
            entry["elements"] += int(x.size)
            entry["seen_low"] = min(entry["seen_low"], float(x.min()))
            entry["seen_high"] = max(entry["seen_high"], float(x.max()))
    return report


def conllu_sentences(path: Path) -> list[tuple[list[str], list[int], list[str], list[str]]]:
    """(words, gold heads, relations, UPOS) per sentence (multiword tokens and empty nodes skipped)."""
    from green_nlp.dataset_readers import read_conllu

    return [(s.words, s.heads or [], s.deprels or [], s.upos or []) for s in read_conllu(path)]


def sst2_texts(sst2: Path, split: str) -> tuple[list[str], list[str]]:
    """(texts, gold label names) of an SST-2 split."""
    from green_nlp.dataset_readers.text_classification import read_examples

    names = {"0": "negative", "1": "positive"}
    examples = list(read_examples(str(sst2 / f"{split}.tsv")))
    return [e.text for e in examples], [names[str(e.label)] for e in examples]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-rev", required=True)
    parser.add_argument("--sentences", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--clip-sentences", type=int, default=0, help="EWT train sentences for the clip count")
    args = parser.parse_args()
    results: dict[str, Any] = {"before_rev": args.before_rev, "repeats": args.repeats, "threads": 1}
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
            uas = sum(h == gh for p, (_, gh, _, _) in zip(answers[side], test) for h, gh in zip(p.heads, gh))
            print(
                f"parser {side}: {words / best[('parser', side)]:,.0f} tokens/s, "
                f"LAS {100 * las / words:.2f} ({words} words)"
            )
            results[f"parser_{side}"] = {
                "tokens_per_s": round(words / best[("parser", side)]),
                "las": round(100 * las / words, 2),
                "uas": round(100 * uas / words, 2),
                "words": words,
            }
            for size in (1, 32):
                correct = sum(c.label == g for c, g in zip(answers[(side, size)], gold))
                print(
                    f"classifier {side} batch {size}: {len(texts) / best[(size, side)]:,.0f} texts/s, "
                    f"accuracy {100 * correct / len(gold):.2f}"
                )
                results[f"classifier_{side}_batch_{size}"] = {
                    "texts_per_s": round(len(texts) / best[(size, side)]),
                    "accuracy": round(100 * correct / len(gold), 2),
                }
        if args.clip_sentences:
            train = conllu_sentences(data_path("ud", "UD_English-EWT", "en_ewt-ud-train.conllu"))
            train_words = [words for words, *_ in train[: args.clip_sentences]]
            results["clip_check"] = {"sentences": len(train_words)}
            results["clip_check"].update(clipped_inputs(REPO / "pretrained" / "en-ewt-parser", train_words))
            print(f"clip check on {len(train_words)} EWT train sentences: {json.dumps(results['clip_check'])}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
