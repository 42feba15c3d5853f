"""The shipped parser's speed across releases, each with the runtime it was released with.

    python -m benchmarks.parser.release_speed [--rev 7e9ab77...] [--repeats 5]

The teacher-scale table runs the previous release's folder on this checkout's runtime, so a change to the
runtime's shared path speeds both up and the ratio shows the models alone. A user upgrading gets the new
runtime and the new model together; this measures that. Three setups, each in a fresh child process
(one thread, int8) that loads its own `green_nlp` (the release's, from `git archive`, or this checkout's)
and parses UD English-EWT test twice: the raw sentence texts (`parse_many`, one sentence a line) and the
gold words (`parse_sentences`):

- the previous release as released: its runtime and its `pretrained/en-ewt-parser`;
- the previous release's model on this checkout's runtime (the teacher-scale table's baseline);
- this checkout: its runtime and its `pretrained/en-ewt-parser`.

The setups take turns for `--repeats` rounds, a warm-up pass in each child before its timed pass; each
setup's best round is kept, tokens counted as the words it parsed. Results:
benchmarks/results/parser_release_speed.{json,md}.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.common import REPO, RESULTS, write_results
from benchmarks.parser.teacher_scale_table import PREVIOUS_RELEASE
from benchmarks.parser.ud_heads_weights import read_gold

NAME = "parser_release_speed"
SHIPPED = "en-ewt-parser"

# run in the child: only the runtime's public calls, which both releases have
WORKER = """
import json, sys, time
from pathlib import Path
import green_nlp
from green_nlp.runtime import load
root, texts_file, words_file = sys.argv[1], sys.argv[2], sys.argv[3]
assert Path(green_nlp.__file__).resolve().is_relative_to(Path(root).resolve()), green_nlp.__file__
model = load(Path(sys.argv[4]), precision="int8", threads=1)
texts = json.loads(Path(texts_file).read_text(encoding="utf-8"))
sentences = [(words, None) for words in json.loads(Path(words_file).read_text(encoding="utf-8"))]
def raw():
    return sum(len(s.words) for doc in model.parse_many(texts) for s in doc)
def tokens():
    return sum(len(s.words) for s in model.parse_sentences(sentences))
result = {}
for name, job in (("raw", raw), ("tokens", tokens)):
    job()  # warm-up: first-call allocations and caches out of the timing
    start = time.perf_counter()
    words = job()
    result[name] = {"tokens": words, "seconds": time.perf_counter() - start}
print(json.dumps(result))
"""


def released_tree(rev: str, target: Path) -> Path:
    """`green_nlp/` and `pretrained/en-ewt-parser/` as they were at `rev`."""
    archive = subprocess.run(
        ["git", "archive", rev, "green_nlp", f"pretrained/{SHIPPED}"], cwd=REPO, check=True, capture_output=True
    ).stdout
    target.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def run_worker(root: Path, folder: Path, texts: Path, words: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(root), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(root), str(texts), str(words), str(folder)],
        env=env,
        cwd=str(root),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"the speed worker for {folder} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def ewt_test() -> tuple[list[str], list[list[str]]]:
    """EWT test's sentence texts and gold words (conllu's reading; multiword-token ranges and empty
    nodes, whose ids are not integers, skipped), as the teacher-scale table takes them."""
    gold = read_gold("test")[1]
    texts = [sentence.metadata["text"] for sentence in gold]
    return texts, [[token["form"] for token in sentence if isinstance(token["id"], int)] for sentence in gold]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default=PREVIOUS_RELEASE, help=f"the release whose pretrained/{SHIPPED} to compare")
    parser.add_argument("--repeats", type=int, default=5, help="rounds; each setup's best is kept")
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    texts, sentences = ewt_test()
    short = args.rev[:7]
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        (work / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
        (work / "words.json").write_text(json.dumps(sentences), encoding="utf-8")
        released = released_tree(args.rev, work / "released")
        setups = {
            f"previous release as released ({short}: its runtime and model)": (released, released),
            f"previous release's model ({short}) on this runtime": (REPO, released),
            "this checkout (runtime and model)": (REPO, REPO),
        }
        best: dict[str, dict[str, Any]] = {}
        for _ in range(args.repeats):
            for label, (root, model_root) in setups.items():
                found = run_worker(root, model_root / "pretrained" / SHIPPED, work / "texts.json", work / "words.json")
                for kind, measured in found.items():
                    rate = measured["tokens"] / measured["seconds"]
                    kept = best.setdefault(label, {}).get(kind)
                    if kept is None or rate > kept["tokens_per_s"]:
                        best[label][kind] = {**measured, "tokens_per_s": rate}
    labels = list(setups)
    baseline = best[labels[0]]
    rows = {
        label: {
            "raw_tokens_per_s": best[label]["raw"]["tokens_per_s"],
            "raw_ratio": best[label]["raw"]["tokens_per_s"] / baseline["raw"]["tokens_per_s"],
            "tokens_tokens_per_s": best[label]["tokens"]["tokens_per_s"],
            "tokens_ratio": best[label]["tokens"]["tokens_per_s"] / baseline["tokens"]["tokens_per_s"],
            "raw_words": best[label]["raw"]["tokens"],
        }
        for label in labels
    }
    current, same_runtime = rows[labels[2]], rows[labels[1]]
    lines = [
        f"this checkout against the release as released: x{current['raw_ratio']:.2f} from raw text, "
        f"x{current['tokens_ratio']:.2f} from tokens (aim >= 0.90)",
        f"against the release's model on this runtime: x{current['raw_ratio'] / same_runtime['raw_ratio']:.2f} raw, "
        f"x{current['tokens_ratio'] / same_runtime['tokens_ratio']:.2f} tokens",
    ]
    note = (
        f"UD English-EWT test ({len(texts):,} sentence texts, one a line; {sum(map(len, sentences)):,} gold words), "
        "int8, one thread, each setup in a fresh process with its own green_nlp; best of "
        f"{args.repeats} rounds taken in turn, a warm-up pass before each timed one. raw words: the words the "
        "setup's tokenizer made of the texts (the releases tokenize differently). Ratios: to the release as "
        f"released. {'; '.join(lines)}. Produced by `python -m benchmarks.parser.release_speed`."
    )
    results = {"rev": args.rev, "repeats": args.repeats, "rows": rows, "best": best, "comparisons": lines}
    columns = ["raw_tokens_per_s", "raw_ratio", "tokens_tokens_per_s", "tokens_ratio", "raw_words"]
    write_results(args.output_dir, NAME, results, rows, columns, note, first_column="setup")


if __name__ == "__main__":
    main()
