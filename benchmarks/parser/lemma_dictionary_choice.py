"""Which lemma dictionary rule to ship, chosen on UD English-EWT dev (never test): lemma accuracy of a
parser folder with the LEMMA head over dev's gold words, with the model's own UPOS, under each rule.

    python -m benchmarks.parser.lemma_dictionary_choice FOLDER [--precision int8]

Rules: the head's edit script alone; a (form, UPOS) -> lemma dictionary from EWT train keyed by the
form as written, by the lower-cased form, or both (exact first), each kept where the most frequent
lemma covers at least a share of the pair's occurrences; the dictionary only where the script's lemma
was never a training lemma (script first); and a casing rule from the predicted UPOS (PROPN keeps the
script's casing, others lower-cased unless the dictionary knows the word), alone and after the
dictionary. Results: benchmarks/results/parser_lemma_dictionary_dev.{json,md}.
"""

import argparse
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import conllu

from benchmarks.common import RESULTS, hardware_description, write_results
from green_nlp.runtime.lemma_lexicon import most_frequent_lemmas
from green_nlp.settings import data_path

Word = tuple[str, str, str, str]  # form, predicted UPOS, the script's lemma, gold lemma
Table = dict[tuple[str, str], str]


def table(train: list[tuple[str, str, str]], lower: bool, min_share: float) -> Table:
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for form, upos, lemma in train:
        counts[(form.lower() if lower else form, upos)][lemma] += 1
    return most_frequent_lemmas(counts, min_share)  # the runtime's own rule


def dictionary(exact: Table, lower: Table) -> Callable[[Word], str]:
    def rule(word: Word) -> str:
        form, upos, predicted, _ = word
        found = exact.get((form, upos))
        if found is None:
            found = lower.get((form.lower(), upos))
        return predicted if found is None else found

    return rule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--precision", default="int8")
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    from green_nlp.runtime import load

    folder_ud = ("ud", "UD_English-EWT")
    with open(data_path(*folder_ud, "en_ewt-ud-train.conllu"), encoding="utf-8") as handle:
        train = [
            (t["form"], t["upos"], t["lemma"])
            for s in conllu.parse_incr(handle)
            for t in s
            if isinstance(t["id"], int) and t["lemma"] != "_"
        ]
    with open(data_path(*folder_ud, "en_ewt-ud-dev.conllu"), encoding="utf-8") as handle:
        dev = [[t for t in s if isinstance(t["id"], int)] for s in conllu.parse_incr(handle)]
    model = load(args.folder, precision=args.precision, threads=1)
    model.lemma_lexicon = None  # the script's own lemmas; the rules below stand in for the dictionary
    words: list[Word] = []
    for sentence, parsed in zip(dev, model.parse_sentences([([t["form"] for t in s], None) for s in dev])):
        words += [(t["form"], u, p, t["lemma"]) for t, u, p in zip(sentence, parsed.upos, parsed.lemmas)]
    known_lemmas = {lemma for _, _, lemma in train}

    def casing(base: Callable[[Word], str], lower: Table) -> Callable[[Word], str]:
        def rule(word: Word) -> str:
            lemma = base(word)
            known = (word[0].lower(), word[1]) in lower
            return lemma if word[1] == "PROPN" or known else lemma.lower()

        return rule

    rules: dict[str, Callable[[Word], str]] = {"edit script only": lambda w: w[2]}
    for share in (0.0, 0.5, 0.8, 0.9):
        exact, lower = table(train, False, share), table(train, True, share)
        rules[f"exact form, share >= {share}"] = dictionary(exact, {})
        rules[f"lower-cased form, share >= {share}"] = dictionary({}, lower)
        rules[f"exact then lower-cased, share >= {share}"] = dictionary(exact, lower)
    exact, lower = table(train, False, 0.8), table(train, True, 0.8)
    shipped = dictionary(exact, lower)
    rules["script first, dictionary where its lemma is unseen (0.8)"] = lambda w: (
        w[2] if w[2] in known_lemmas else shipped(w)
    )
    rules["UPOS casing rule only"] = casing(lambda w: w[2], lower)
    rules["exact then lower-cased (0.8), then UPOS casing rule"] = casing(shipped, lower)
    rows = {
        name: {"lemma_accuracy": 100.0 * sum(rule(w) == w[3] for w in words) / len(words)}
        for name, rule in rules.items()
    }
    results = {
        "machine": hardware_description(),
        "folder": str(args.folder),
        "precision": args.precision,
        "dev_words": len(words),
        "rows": rows,
    }
    note = (
        f"UD English-EWT dev, {len(words):,} gold words, lemma accuracy (%) with the model's own UPOS "
        f"({args.precision}); dictionaries from EWT train. The shipped rule: exact then lower-cased, "
        "share >= 0.8. Produced by `python -m benchmarks.parser.lemma_dictionary_choice`."
    )
    write_results(args.output_dir, "parser_lemma_dictionary_dev", results, rows, ["lemma_accuracy"], note, "rule")


if __name__ == "__main__":
    main()
