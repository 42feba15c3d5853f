"""The shipped sentiment DAN on whole reviews: each review as one text, against its sentences
classified one by one and combined (`green-nlp classify --split-sentences`: the mean of their logits).

The DAN learnt from sentences (SST-2's phrases and teacher-labelled IMDB sentences). IMDB's labelled
reviews are whole reviews, about 12 sentences each. The way of combining sentences is chosen on IMDB
train (every combination below, each review's `<br />` markup turned into a space) and reported on
IMDB test; the regular-expression splitter the runtime uses is set beside spaCy's sentencizer, and
SST-2 test (single sentences) is scored with and without the split. Speed:
texts per CPU-second of the runtime (int8, one thread, 32 texts a call) with and without the split,
best of --repeats passes taken in turn, in this run.

    python -m benchmarks.dan.long_texts [--limit N] [--repeats 3]

Writes benchmarks/results/dan_long_texts.{json,md}.
"""

import argparse
import gzip
import json
import random
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

import numpy as np

from benchmarks.common import REPO, RESULTS, hardware_description, write_results
from green_nlp.runtime import load
from green_nlp.runtime.classifier import Classification, mean_of_sentences
from green_nlp.runtime.text_sentences import split_sentences
from green_nlp.settings import data_path

MODEL = REPO / "pretrained" / "en-sst2-sentiment"
LABELS = {"pos": "positive", "neg": "negative"}
MARKUP = re.compile(r"<br\s*/?>", re.IGNORECASE)
# the runtime's way, and the others it was chosen against on IMDB train
COMBINATIONS = ("mean of logits", "mean of probabilities", "majority vote")


def imdb(split: str, limit: Optional[int]) -> tuple[list[str], list[str]]:
    path = Path(data_path("cls", "imdb", f"{split}.jsonl.gz"))
    if not path.is_file():
        raise SystemExit(f"{path} not found (set GREEN_NLP_DATA to the data folder holding cls/imdb/)")
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    random.Random(0).shuffle(rows)  # the files are sorted by label: a --limit sample must hold both
    rows = rows[:limit] if limit else rows
    return [" ".join(MARKUP.sub(" ", row["text"]).split()) for row in rows], [LABELS[row["label"]] for row in rows]


def sst2_test() -> tuple[list[str], list[str]]:
    path = Path(data_path("cls", "sst2", "test.tsv"))
    if not path.is_file():
        raise SystemExit(f"{path} not found (set GREEN_NLP_DATA to the data folder holding cls/sst2/)")
    rows = [line.split("\t", 1) for line in path.read_text(encoding="utf-8").splitlines()[1:] if "\t" in line]
    return [text for _, text in rows], ["positive" if label == "1" else "negative" for label, _ in rows]


def combine(sentences: Sequence[Classification], labels: Sequence[str], how: str) -> str:
    """One review's label from its sentences' classifications."""
    if how == "mean of logits":
        return mean_of_sentences(sentences, labels).label
    known = [result for result in sentences if result.num_ngrams] or list(sentences)
    if how == "mean of probabilities":
        return labels[int(np.mean([list(r.probabilities.values()) for r in known], axis=0).argmax())]
    votes = [labels.index(result.label) for result in known]
    return labels[int(np.bincount(votes, minlength=len(labels)).argmax())]  # a tie goes to the first label


def scores(nlp: Any, texts: list[str], gold: list[str], splitter: Callable[[str], list[str]]) -> dict[str, Any]:
    """Accuracy and positive share of each way of combining the sentences `splitter` cuts."""
    pieces = [splitter(text) for text in texts]
    flat = list(nlp.classify_many([sentence for sentences in pieces for sentence in sentences]))
    found: dict[str, list[str]] = {how: [] for how in COMBINATIONS}
    start = 0
    for sentences in pieces:
        part = flat[start : start + len(sentences)]
        start += len(sentences)
        for how in COMBINATIONS:
            found[how].append(combine(part, nlp.labels, how))
    result = {"sentences_per_text": len(flat) / len(texts)}
    for how, predicted in found.items():
        result[how] = summary(predicted, gold)
    return result


def summary(predicted: list[str], gold: list[str]) -> dict[str, float]:
    return {
        "accuracy": 100 * float(np.mean([p == g for p, g in zip(predicted, gold)])),
        "positive_share": 100 * float(np.mean([p == "positive" for p in predicted])),
    }


def spacy_splitter() -> Callable[[str], list[str]]:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return lambda text: [s.text.strip() for s in nlp(text).sents if s.text.strip()] or [text]


def rates(nlp: Any, texts: list[str], repeats: int) -> dict[str, float]:
    """Texts per CPU-second, whole and split, best of `repeats` passes taken in turn."""
    best = {False: float("inf"), True: float("inf")}
    for _ in range(repeats):
        for split in best:
            nlp.split_sentences = split
            start = time.process_time()
            list(nlp.classify_many(texts, batch_size=32))
            best[split] = min(best[split], time.process_time() - start)
    nlp.split_sentences = False
    return {"whole": len(texts) / best[False], "split": len(texts) / best[True]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--limit", type=int, default=None, help="N reviews of each set, a fixed random sample (default: all)"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output-dir", default=str(RESULTS))
    args = parser.parse_args()
    nlp = load(MODEL, precision="int8", threads=1)
    results: dict[str, Any] = {"model": "pretrained/en-sst2-sentiment", "hardware": hardware_description()}
    rows: dict[str, dict[str, Any]] = {}
    spacy_split = spacy_splitter()
    for split in ("train", "test"):
        texts, gold = imdb(split, args.limit)
        whole = summary([c.label for c in nlp.classify_many(texts)], gold)
        nlp.split_sentences = True
        runtime = summary([c.label for c in nlp.classify_many(texts)], gold)  # what --split-sentences gives
        nlp.split_sentences = False
        by_splitter = {
            "regex": scores(nlp, texts, gold, split_sentences),
            "spaCy": scores(nlp, texts, gold, spacy_split),
        }
        if runtime != by_splitter["regex"]["mean of logits"]:
            raise SystemExit("the runtime's --split-sentences differs from the mean of its sentences' logits")
        results[split] = {"reviews": len(texts), "whole": whole, "split": by_splitter}
        rows[f"IMDB {split}: each review whole"] = {"reviews": len(texts), **whole}
        for name, found in by_splitter.items():
            for how in COMBINATIONS:
                label = f"IMDB {split}: {name} sentences, {how}" + (
                    " (--split-sentences)" if (name, how) == ("regex", "mean of logits") else ""
                )
                rows[label] = {"reviews": len(texts), "sentences_per_text": found["sentences_per_text"], **found[how]}
    # the setting on the single sentences the model learnt from: SST-2 test, whole and cut
    sst2, sst2_gold = sst2_test()
    for name, split in (("each sentence whole", False), ("--split-sentences", True)):
        nlp.split_sentences = split
        rows[f"SST-2 test: {name}"] = {
            "reviews": len(sst2),
            **summary([c.label for c in nlp.classify_many(sst2)], sst2_gold),
        }
        results.setdefault("sst2_test", {})[name] = rows[f"SST-2 test: {name}"]
    nlp.split_sentences = False
    test_texts, _ = imdb("test", args.limit)
    speed = rates(nlp, test_texts, args.repeats)
    results["texts_per_cpu_s"] = speed
    chosen = max(COMBINATIONS, key=lambda how: results["train"]["split"]["regex"][how]["accuracy"])
    results["chosen_on_train"] = chosen
    gain = results["test"]["split"]["regex"]["mean of logits"]["accuracy"] - results["test"]["whole"]["accuracy"]
    note = (
        "The shipped `en-sst2-sentiment` (int8, one thread) on IMDB's labelled reviews, `<br />` markup as a space. "
        "Sentences: the runtime's regular expression (green_nlp/runtime/text_sentences.py) or spaCy's sentencizer; "
        "each sentence classified alone, then combined (sentences without a known n-gram left out unless all are). "
        f"Best on IMDB train: {chosen} (the runtime's `--split-sentences` is the regex's mean of logits). IMDB test: "
        f"{gain:+.2f} accuracy points over each review whole. Speed on IMDB test, texts per CPU-second at 32 a call, "
        f"best of {args.repeats}: whole {speed['whole']:,.0f}, split {speed['split']:,.0f} "
        f"({speed['split'] / speed['whole']:.2f}x). SST-2 test (one sentence a text, cut where it holds an inner "
        f"full stop): {results['sst2_test']['each sentence whole']['accuracy']:.2f} whole, "
        f"{results['sst2_test']['--split-sentences']['accuracy']:.2f} with --split-sentences. "
        f"{results['hardware']}. IMDB: research terms (Maas et al. 2011)."
    )
    columns = ["reviews", "sentences_per_text", "accuracy", "positive_share"]
    write_results(Path(args.output_dir), "dan_long_texts", results, rows, columns, note, first_column="setting")


if __name__ == "__main__":
    main()
