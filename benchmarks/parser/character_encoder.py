"""The shipped parser's character encoder before and after three changes: its convolution as one MatMul
(`green_nlp.export.graph_shortcuts`), a batch's new words encoded in runs of similar length
(`green_nlp.runtime.character_vectors.length_runs`), and a window's new words encoded ahead of its
batches (`CharacterVectors.encode_ahead`), against the encoder graph committed at `--rev`.

    python -m benchmarks.parser.character_encoder [--rev 39f405a] [--repeats 5] [--imdb-reviews 3000]

- **Same bits**: every distinct word of UD English-EWT train, dev and test and of the first IMDB test
  reviews (split at whitespace), through both graphs in length-sorted and in shuffled batches of 1-200
  words, padded as the runtime pads; the words whose vector differs in any bit.
- **Padding**: EWT test's sentences (one a line, the runtime's tokenization) in the runtime's batches
  (32, sorted by length), each batch's words not met in an earlier batch: their mean length, and the
  mean width they are padded to in one call a batch and in the runs.
- **Time**: a cold pass over those batches (no word's vector kept at its start, as a fresh process),
  the batch's feed with its encoder calls, CPU µs a token, for both graphs in one call a batch and in
  runs, and the shipped graph in runs with the pass's words encoded ahead of its batches
  (`CharacterVectors.encode_ahead`, as `parse_many` encodes a window's); the five interleaved,
  medians of `--repeats`; and the encoder calls of a cold pass batch by batch and encoded ahead.

Results: benchmarks/results/parser_character_encoder.{json,md}.
"""

import argparse
import gzip
import json
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import REPO, RESULTS, git_bytes, hardware_description, write_results
from benchmarks.runtime.time_budget import ewt_texts
from green_nlp.runtime import character_vectors, create_session, load
from green_nlp.runtime.length_batches import by_length
from green_nlp.runtime.parser_agreement import read_conllu_words
from green_nlp.runtime.parser_segmenter import TextSegmenter
from green_nlp.settings import data_path

PARSER = REPO / "pretrained" / "en-ewt-parser"
ENCODER = "chars.int8.onnx"
BEFORE = "39f405a"  # the last revision with the Conv and one encoder call a batch
BATCH = 32


def ewt_forms(split: str) -> Iterator[str]:
    path = data_path("ud", "UD_English-EWT", f"en_ewt-ud-{split}.conllu")
    for words, _ in read_conllu_words(path, with_upos=False):
        yield from words


def imdb_words(reviews: int) -> Iterator[str]:
    with gzip.open(data_path("cls", "imdb", "test.jsonl.gz"), "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if number >= reviews:
                break
            yield from json.loads(line)["text"].split()


def same_bits(nlp: Any, before: Any, words: list[str], seed: int = 0) -> dict[str, int]:
    """Words whose vector from `before` differs from the shipped encoder's in any bit."""
    after = nlp.character_vectors
    rng = np.random.default_rng(seed)
    differing = {}
    orders = {"length-sorted": sorted(words, key=len), "shuffled": [words[i] for i in rng.permutation(len(words))]}
    for name, ordered in orders.items():
        count, start = 0, 0
        while start < len(ordered):
            chunk = ordered[start : start + int(rng.integers(1, 201))]
            start += len(chunk)
            ids = nlp.inputs.char_id_rows(chunk, after.min_width)
            old = before.run([after.output_name], {after.input_name: ids})[0]
            new = after.session.run([after.output_name], {after.input_name: ids})[0]
            count += int((old != new).any(axis=1).sum())
        differing[name] = count
    return differing


def ewt_batches(nlp: Any) -> list[list[list[str]]]:
    """EWT test's sentences (one a line, the runtime's tokenization) in the runtime's batches."""
    segmenter = TextSegmenter(nlp.segmenter.language, split_sentences=False, rules=nlp.segmenter.rules)
    sentences = [words for text in ewt_texts(None) for _, words in segmenter.segment(text.strip())]
    return [sorted((sentences[i] for i in batch), key=len) for batch in by_length(list(map(len, sentences)), BATCH)]


def padding(batches: list[list[list[str]]], min_width: int) -> dict[str, float]:
    """Mean length of each batch's new words, and the mean width they are padded to."""
    seen: set[str] = set()
    lengths: list[int] = []
    one_call = runs = 0
    for batch in batches:
        new = sorted({word for words in batch for word in words} - seen, key=len)
        seen.update(new)
        if not new:
            continue
        sizes = [len(word) for word in new]
        lengths += sizes
        one_call += len(new) * max(min_width, sizes[-1])
        runs += sum(
            len(run) * max(min_width, sizes[run[-1]]) for run in character_vectors.length_runs(sizes, min_width)
        )
    return {
        "new_words": len(lengths),
        "mean_length": statistics.mean(lengths),
        "mean_width_one_call": one_call / len(lengths),
        "mean_width_runs": runs / len(lengths),
    }


class CountingSession:
    """An encoder session counting its calls."""

    def __init__(self, session: Any) -> None:
        self.session, self.calls = session, 0

    def run(self, names: Any, feed: Any) -> Any:
        self.calls += 1
        return self.session.run(names, feed)


def cold_pass(nlp: Any, batches: list[list[list[str]]], ahead: bool = False) -> float:
    """CPU seconds of the batches' feeds from an empty cache; `ahead`: their words encoded first,
    as `parse_many` encodes a window's (`CharacterVectors.encode_ahead`)."""
    nlp.character_vectors.clear()
    start = time.process_time()
    if ahead:
        nlp.character_vectors.encode_ahead(["", *(word for batch in batches for words in batch for word in words)])
    for batch in batches:
        nlp.inputs.feed(batch, [None] * len(batch))
    return time.process_time() - start


def encoder_calls(nlp: Any, batches: list[list[list[str]]], ahead: bool) -> int:
    """The encoder calls of one cold pass."""
    vectors = nlp.character_vectors
    shipped = vectors.session
    vectors.session = counting = CountingSession(shipped)
    try:
        cold_pass(nlp, batches, ahead)
    finally:
        vectors.session = shipped
    return counting.calls


def timings(nlp: Any, before: Any, batches: list[list[list[str]]], repeats: int) -> dict[str, float]:
    """CPU µs a token of cold passes: each graph, one call a batch (`WIDTH_RATIO` unbounded) or runs."""
    vectors, shipped = nlp.character_vectors, nlp.character_vectors.session
    ratio = character_vectors.WIDTH_RATIO
    setups = {
        "Conv, one call a batch": (before, float("inf")),
        "Conv, runs": (before, ratio),
        "MatMul, one call a batch": (shipped, float("inf")),
        "MatMul, runs": (shipped, ratio),
        "MatMul, runs, the pass's words encoded ahead (shipped)": (shipped, ratio),
    }
    tokens = sum(len(words) for batch in batches for words in batch)
    seconds: dict[str, list[float]] = {name: [] for name in setups}
    try:
        for _ in range(repeats):
            for name, (session, width_ratio) in setups.items():
                vectors.session, character_vectors.WIDTH_RATIO = session, width_ratio
                seconds[name].append(cold_pass(nlp, batches, ahead="ahead" in name))
    finally:
        vectors.session, character_vectors.WIDTH_RATIO = shipped, ratio
    return {name: statistics.median(times) / tokens * 1e6 for name, times in seconds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rev", default=BEFORE, help="the revision whose encoder graph is the 'before'")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--imdb-reviews", type=int, default=3000)
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    nlp = load(PARSER, precision="int8", threads=1)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / ENCODER
        path.write_bytes(git_bytes("show", f"{args.rev}:pretrained/en-ewt-parser/{ENCODER}"))
        before = create_session(path, 1)
    words = sorted({*ewt_forms("train"), *ewt_forms("dev"), *ewt_forms("test"), *imdb_words(args.imdb_reviews)} - {""})
    batches = ewt_batches(nlp)
    differing = same_bits(nlp, before, words)
    padded = padding(batches, nlp.character_vectors.min_width)
    times = timings(nlp, before, batches, args.repeats)
    calls = {"batch by batch": encoder_calls(nlp, batches, False), "encoded ahead": encoder_calls(nlp, batches, True)}
    results = {
        "rev": args.rev,
        "distinct_words": len(words),
        "imdb_reviews": args.imdb_reviews,
        "words_with_differing_vectors": differing,
        "padding": padded,
        "us_per_token_cold_pass": times,
        "encoder_calls_cold_pass": calls,
        "hardware": hardware_description(),
    }
    rows = {name: {"µs a token (feed + encoder, cold pass)": value} for name, value in times.items()}
    note = (
        f"Words whose vector differs in any bit between the encoder at {args.rev} (Conv) and the shipped one "
        f"(MatMul), over {len(words):,} distinct words of UD English-EWT train/dev/test and the first "
        f"{args.imdb_reviews:,} IMDB test reviews: {differing['length-sorted']} in length-sorted batches, "
        f"{differing['shuffled']} in shuffled ones (1-200 words a call). EWT test's batches of {BATCH}: "
        f"{padded['new_words']:,} new words of {padded['mean_length']:.1f} characters on average, padded to "
        f"{padded['mean_width_one_call']:.1f} in one call a batch and {padded['mean_width_runs']:.1f} in runs "
        f"(longest at most {character_vectors.WIDTH_RATIO}x the shortest). Encoder calls in a cold pass of runs: "
        f"{calls['batch by batch']} batch by batch, {calls['encoded ahead']} with the pass's words encoded ahead "
        "(as `parse_many` encodes a window's). Times: cold passes of those batches "
        f"(feed and encoder calls), CPU µs a token, medians of {args.repeats}, interleaved; "
        f"{results['hardware']}. Written by `python -m benchmarks.parser.character_encoder`."
    )
    write_results(
        args.output_dir,
        "parser_character_encoder",
        results,
        rows,
        ["µs a token (feed + encoder, cold pass)"],
        note,
        "encoder",
    )


if __name__ == "__main__":
    main()
