"""The shipped parser with its lemma head in a graph of its own (`green_nlp.export.lemma_head_split`)
against the same folder as committed at `--rev`, the head inside the main graph, both on this
checkout's runtime.

    python -m benchmarks.parser.lemma_head [--rev fee4a75] [--repeats 9] [--imdb-reviews 1500]

- **Same answers**: UD English-EWT test's sentence texts (one a line, as `green-nlp parse` reads a
  file) and the first IMDB test reviews (sentence splitting on) through both folders; the lines whose
  CoNLL-U differs in any byte.
- **Words the head reads**: how many of EWT test's words the split folder's lemma head ran on (the
  words its (form, UPOS) dictionary lacks), against all words.
- **Time**: `parse_many` plus CoNLL-U over EWT test, each pass with no word's character vector kept
  (as a fresh process), the two folders in turn, CPU µs a token, medians of `--repeats` rounds, and
  the split folder's time over the other's within each round (the two passes ran back to back).

Results: benchmarks/results/parser_lemma_head.{json,md}.
"""

import argparse
import gzip
import io
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import REPO, RESULTS, committed_folder, hardware_description, write_results
from benchmarks.runtime.time_budget import ewt_texts
from green_nlp.runtime import load
from green_nlp.runtime.parser_segmenter import TextSegmenter
from green_nlp.settings import data_path

NAME = "parser_lemma_head"
SHIPPED = REPO / "pretrained" / "en-ewt-parser"
BEFORE = "fee4a75"  # the last commit whose en-ewt-parser had the lemma head inside its main graph
BATCH = 32


class CountingHead:
    """A lemma head session that counts the word rows it is given."""

    def __init__(self, session: Any) -> None:
        self.session, self.rows = session, 0

    def run(self, names: list[str], feed: dict[str, Any]) -> list[Any]:
        self.rows += sum(value.shape[1] for value in feed.values())  # (1, words, state)
        return list(self.session.run(names, feed))


def one_a_line(folder: Path) -> Any:
    """The folder's runtime reading each text as one sentence, as `green-nlp parse` reads a file."""
    nlp = load(folder, precision="int8", threads=1)
    nlp.segmenter = TextSegmenter(nlp.segmenter.language, split_sentences=False, rules=nlp.segmenter.rules)
    return nlp


def conllu_lines(nlp: Any, texts: list[str]) -> list[str]:
    """Each text's CoNLL-U, a fresh pass (no word's character vector kept)."""
    if nlp.character_vectors is not None:
        nlp.character_vectors.clear()
    return [doc.to_conllu() for doc in nlp.parse_many(texts, batch_size=BATCH)]


def differing(first: list[str], second: list[str]) -> int:
    """How many texts' outputs differ in any byte (a missing output counts)."""
    return sum(a != b for a, b in zip(first, second)) + abs(len(first) - len(second))


def imdb_reviews(count: int) -> list[str]:
    path = Path(data_path("cls", "imdb", "test.jsonl.gz"))
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line)["text"] for line, _ in zip(lines, range(count))]


def token_count(nlp: Any, texts: list[str]) -> int:
    return sum(len(words) for text in texts for _, words in nlp.segmenter.segment(text))


def timings(folders: dict[str, Any], texts: list[str], repeats: int) -> dict[str, list[float]]:
    """CPU µs a token of whole passes (parse + CoNLL-U), the folders in turn, `repeats` rounds after
    one that warms up."""
    tokens = token_count(folders["before"], texts)
    rounds: dict[str, list[float]] = {name: [] for name in folders}
    for _ in range(repeats + 1):
        for name, nlp in folders.items():
            start = time.process_time()
            io.StringIO().write("".join(conllu_lines(nlp, texts)))
            rounds[name].append((time.process_time() - start) / tokens * 1e6)
    return {name: values[1:] for name, values in rounds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rev", default=BEFORE, help="the revision whose en-ewt-parser is the 'before'")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--imdb-reviews", type=int, default=1500)
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    texts = ewt_texts(None)
    with tempfile.TemporaryDirectory() as scratch:
        before_folder = committed_folder("en-ewt-parser", args.rev, Path(scratch) / "before")
        folders = {"before": one_a_line(before_folder), "split": one_a_line(SHIPPED)}
        if folders["split"]._lemma_head is None or folders["before"]._lemma_head is not None:
            raise SystemExit(f"the shipped folder must have its lemma head apart and the one at {args.rev} not")
        head = folders["split"]._lemma_head = CountingHead(folders["split"]._lemma_head)
        ewt = {name: conllu_lines(nlp, texts) for name, nlp in folders.items()}
        words = token_count(folders["split"], texts)
        head_rows, folders["split"]._lemma_head = head.rows, head.session  # the timings without the count
        reviews = imdb_reviews(args.imdb_reviews)
        imdb = {
            name: [doc.to_conllu() for doc in load(folder, "int8", 1).parse_many(reviews)]
            for name, folder in (("before", before_folder), ("split", SHIPPED))
        }
        rounds = timings(folders, texts, args.repeats)
    times = {name: statistics.median(values) for name, values in rounds.items()}
    # each round's two passes ran back to back: their ratio is steadier than either time
    ratios = [split / before for before, split in zip(rounds["before"], rounds["split"])]
    results = {
        "rev": args.rev,
        "ewt_lines_differing": differing(ewt["before"], ewt["split"]),
        "ewt_lines": len(texts),
        "imdb_reviews_differing": differing(imdb["before"], imdb["split"]),
        "imdb_reviews": len(reviews),
        "ewt_words": words,
        "words_through_the_head": head_rows,
        "us_per_token": times,
        "us_per_token_rounds": rounds,
        "split_over_before": {"median": statistics.median(ratios), "low": min(ratios), "high": max(ratios)},
        "hardware": hardware_description(),
    }
    labels = {"before": f"lemma head inside the main graph ({args.rev})", "split": "lemma head apart (shipped)"}
    rows = {labels[name]: {"µs a token (parse + CoNLL-U)": value} for name, value in times.items()}
    note = (
        f"The shipped en-ewt-parser against the same folder at {args.rev}, this checkout's runtime for both. "
        f"Lines whose CoNLL-U differs in any byte: {results['ewt_lines_differing']} of {len(texts):,} EWT test "
        f"sentence texts (one a line) and {results['imdb_reviews_differing']} of {len(reviews):,} IMDB test reviews "
        f"(sentence splitting on). The split folder's lemma head read {head_rows:,} of EWT test's {words:,} words "
        f"({head_rows / words:.1%}): the others' lemmas are the (form, UPOS) dictionary's. Times: whole passes "
        f"(parse_many, batches of {BATCH}, and CoNLL-U; no character vector kept), CPU µs a token, the two folders "
        f"in turn, medians of {args.repeats} rounds; the split folder's time over the other's in the same round: "
        f"median {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f}); {results['hardware']}. "
        "Written by `python -m benchmarks.parser.lemma_head`."
    )
    write_results(args.output_dir, NAME, results, rows, ["µs a token (parse + CoNLL-U)"], note, "folder")


if __name__ == "__main__":
    main()
