"""The lemma choice (`green_nlp.runtime.lemma_choice`): LEMMA with and without its word list, and its
settings chosen on UD English-EWT dev (never test). Gold words, the parser's own UPOS; accuracy over
all words and over the words EWT train never has.

    python -m benchmarks.parser.lemma_choice [--folder pretrained/en-ewt-parser]

The folder's graph must give the lemma head's best scripts (`lemma_rules_top`). Each word whose lemma
comes from its script (not the lemma dictionary) is recorded once with those scripts, through the
runtime's own code path; every setting is then applied to the records. Word lists: EWT train's forms
and lemmas, plus the words seen at least MIN_COUNT times in IMDB's unlabelled and training reviews.
Results: benchmarks/results/parser_lemma_choice.{json,md}.
"""

import argparse
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Optional

import conllu

from benchmarks.common import RESULTS, hardware_description, write_results
from green_nlp.export.attested_words import texts_of
from green_nlp.runtime import lemma_choice
from green_nlp.runtime.lemma_choice import WORD, AttestedWords
from green_nlp.settings import data_path

MIN_COUNTS = (1, 3, 10)
CASES = ("any case", "lower case")
TOP_KS = (2, 3, 5)
MIN_RATIOS = (0.0, 0.02, 0.05, 0.1)
Record = tuple[str, str, list[tuple[str, float]]]  # form, the best script's lemma, the top scripts


class Recorder(AttestedWords):
    """Stands in for the folder's word list: keeps every word the runtime would try to choose for
    and hands back a marker lemma, so each record is found at its word's place afterwards."""

    def __init__(self) -> None:
        super().__init__([])
        self.records: list[Record] = []

    def settled(self, form: str, lemma: str) -> bool:
        return False

    def choose(self, form: str, lemma: str, alternatives: Iterable[tuple[str, float]], *_: Any) -> str:
        self.records.append((form, lemma, list(alternatives)))
        return f"\x00{len(self.records) - 1}"


def sentences(split: str) -> list[list[tuple[str, str]]]:
    with open(data_path("ud", "UD_English-EWT", f"en_ewt-ud-{split}.conllu"), encoding="utf-8") as handle:
        return [[(t["form"], t["lemma"]) for t in s if isinstance(t["id"], int)] for s in conllu.parse_incr(handle)]


def imdb_counts() -> dict[str, Counter[str]]:
    """Word counts of IMDB's reviews: of every occurrence lower-cased ("any case"), and of the
    occurrences written in lower case only ("lower case"), which leaves out names (Starr, Hercule)."""
    counts: dict[str, Counter[str]] = {case: Counter() for case in CASES}
    for name in ("train_unsup", "train"):
        for text in texts_of(Path(data_path("cls", "imdb", f"{name}.jsonl.gz"))):
            counts["any case"].update(WORD.findall(text.lower()))
            counts["lower case"].update(word for word in WORD.findall(text) if word.islower())
    return counts


def words_of(model: Any, gold: list[list[tuple[str, str]]]) -> list[tuple[str, str, Optional[Record]]]:
    """(form, gold lemma, record or None) of every word, through the runtime with a `Recorder`."""
    recorder = Recorder()
    model.attested_words = recorder
    parsed = model.parse_sentences([([form for form, _ in s], None) for s in gold])
    words = []
    for sentence, tree in zip(gold, parsed):
        for (form, lemma), predicted in zip(sentence, tree.lemmas):
            record = recorder.records[int(predicted[1:])] if predicted.startswith("\x00") else None
            words.append((form, lemma, record if record is not None else (form, predicted, [])))
    return words  # type: ignore[return-value]


def accuracy(
    words: list[tuple[str, str, Record]],
    unseen: set[str],
    attested: Optional[AttestedWords],
    top_k: int,
    min_ratio: float,
) -> dict[str, Any]:
    right = right_unseen = changed = 0
    for form, gold, (_, best, alternatives) in words:
        lemma = best if attested is None else attested.choose(form, best, alternatives, top_k, min_ratio)
        right += lemma == gold
        right_unseen += lemma == gold and form in unseen
        changed += lemma != best
    return {
        "lemma_accuracy": 100.0 * right / len(words),
        "unseen_lemma_accuracy": 100.0 * right_unseen / max(1, sum(form in unseen for form, _, _ in words)),
        "changed_words": changed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, default=Path("pretrained/en-ewt-parser"))
    parser.add_argument("--precision", default="auto")
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    from green_nlp.runtime import load

    model = load(args.folder, precision=args.precision, threads=1)
    if not model._lemma_top:
        raise SystemExit(f"{args.folder}: its graph gives no lemma_rules_top, or it has no word list; re-export it")
    train = sentences("train")
    treebank = [w for s in train for pair in s for w in pair if w and w != "_"]
    train_forms = {form for s in train for form, _ in s}
    counts = imdb_counts()
    lists = {
        (case, count): AttestedWords([*treebank, *(w for w, c in counts[case].items() if c >= count)])
        for case in CASES
        for count in MIN_COUNTS
    }
    splits = {split: words_of(model, sentences(split)) for split in ("dev", "test")}
    unseen = {split: {form for form, _, _ in words} - train_forms for split, words in splits.items()}
    rows: dict[str, dict[str, Any]] = {"dev, no word list": accuracy(splits["dev"], unseen["dev"], None, 0, 0.0)}
    for case, count in lists:
        for top_k in TOP_KS:
            for least in MIN_RATIOS:
                name = f"dev, IMDB words seen >= {count} ({case}), top {top_k}, ratio to the best >= {least}"
                rows[name] = accuracy(splits["dev"], unseen["dev"], lists[case, count], top_k, least)
    shipped = (lemma_choice.MIN_COUNT, lemma_choice.TOP_K, lemma_choice.MIN_RATIO)
    shipped_case = "lower case" if lemma_choice.LOWER_CASE_ONLY else "any case"
    best = max((r for r in rows if r.startswith("dev, IMDB")), key=lambda r: rows[r]["lemma_accuracy"])
    rows["test, no word list"] = accuracy(splits["test"], unseen["test"], None, 0, 0.0)
    for case in CASES:  # the shipped count, top k and ratio, with each way of counting
        mark = " (shipped)" if case == shipped_case else ""
        rows[f"test, IMDB words seen >= {shipped[0]} ({case}), top {shipped[1]}, ratio >= {shipped[2]}{mark}"] = (
            accuracy(splits["test"], unseen["test"], lists[case, shipped[0]], *shipped[1:])
        )
    results = {
        "machine": hardware_description(),
        "folder": str(args.folder),
        "precision": args.precision,
        "shipped": {"min_count": shipped[0], "top_k": shipped[1], "min_ratio": shipped[2], "counting": shipped_case},
        "best_on_dev": best,
        "words": {split: len(words) for split, words in splits.items()},
        "unseen_words": {split: sum(f in unseen[split] for f, _, _ in words) for split, words in splits.items()},
        "word_list_sizes": {f"{case}, >= {count}": len(words) for (case, count), words in lists.items()},
        "rows": rows,
    }
    note = (
        f"UD English-EWT, gold words ({results['words']['dev']:,} dev, {results['words']['test']:,} test; "
        f"{results['unseen_words']['dev']:,} and {results['unseen_words']['test']:,} of them unseen in train), "
        f"lemma accuracy (%) with the parser's own UPOS, {args.folder} ({args.precision}). Shipped: IMDB words seen "
        f">= {shipped[0]} times ({shipped_case}), top {shipped[1]} scripts, probability >= {shipped[2]} x the best "
        "script's; 'lower case' counts only the occurrences written in lower case (names left out); "
        f"best on dev: {best}. "
        "Test is reported for the shipped count, top k and ratio only. "
        "Produced by `python -m benchmarks.parser.lemma_choice`."
    )
    columns = ["lemma_accuracy", "unseen_lemma_accuracy", "changed_words"]
    write_results(args.output_dir, "parser_lemma_choice", results, rows, columns, note, "setting")


if __name__ == "__main__":
    main()
