"""Sentences for a parser teacher to label: PTB-tagged English text given UD UPOS.

A distilled student can learn from more than the treebank: sentences the teacher parses (a
transfer set) carry soft targets it never fit and silver trees. The parsers read gold UPOS, so the
text must come with tags. This takes a CoNLL column file whose second column is a PTB tag
(CoNLL-2000 chunking: token, POS, chunk), maps the tags to UPOS with `UposFromXpos` fitted on the
treebank's training set, and writes JSON lines `{"words": [...], "upos": [...]}` that the
`green_dependency_parser` predictor parses into CoNLL-U:

    python -m experiments.parser.transfer_set --output runs/parser/ud_ewt/transfer/conll2000.jsonl
    allennlp predict <teacher>/model.tar.gz runs/parser/ud_ewt/transfer/conll2000.jsonl \\
        --predictor green_dependency_parser --output-file runs/parser/ud_ewt/transfer/conll2000_silver.conllu \\
        --include-package green_nlp --silent

(experiments/parser/run_transfer.sh runs both and joins the silver trees to the training set.)
It also reports how often the mapping recovers the treebank's own dev UPOS from its XPOS, so the
tag noise the transfer set adds is measured, not guessed. Writes that to
experiments/parser/results/parser_transfer_set.json and .md.
"""

import argparse
import json
from pathlib import Path
from typing import Optional

from benchmarks.common import write_results
from green_nlp.data.upos_from_xpos import UposFromXpos
from green_nlp.dataset_readers.conll_tagging import read_columns
from green_nlp.dataset_readers.conllu_sentences import read_conllu
from green_nlp.settings import data_dir

TREEBANK = "ud/UD_English-EWT/en_ewt-ud-{}.conllu"
TAGGED_TEXT = "chunk/conll2000/train.txt"
RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts


def write_transfer_set(
    mapping: UposFromXpos, tagged_path: Path, output: Path, max_sentence_length: Optional[int]
) -> dict[str, int]:
    output.parent.mkdir(parents=True, exist_ok=True)
    counts = {"sentences": 0, "words": 0, "skipped_long": 0}
    with open(output, "w", encoding="utf-8") as handle:
        for rows, _ in read_columns(str(tagged_path)):
            if max_sentence_length is not None and len(rows) > max_sentence_length:
                counts["skipped_long"] += 1
                continue
            words = [row[0] for row in rows]
            upos = mapping(words, [row[1] for row in rows])
            handle.write(json.dumps({"words": words, "upos": upos}, ensure_ascii=False) + "\n")
            counts["sentences"] += 1
            counts["words"] += len(words)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=None, help="data root (default: GREEN_NLP_DATA)")
    parser.add_argument(
        "--tagged-text", default=TAGGED_TEXT, help="CoNLL columns file under --data: word, PTB tag, ..."
    )
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--max-sentence-length", type=int, default=150)
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args()
    root = args.data or data_dir()
    mapping = UposFromXpos.fit(read_conllu(root / TREEBANK.format("train")))
    accuracy = mapping.accuracy(read_conllu(root / TREEBANK.format("dev")))
    counts = write_transfer_set(mapping, root / args.tagged_text, args.output, args.max_sentence_length)
    row = {"upos_from_xpos_dev_accuracy": round(100 * accuracy, 2), **counts}
    results = {
        "fitted_on": TREEBANK.format("train"),
        "checked_on": TREEBANK.format("dev"),
        "transfer_text": args.tagged_text,
        "transfer_set": row,
    }
    write_results(
        args.results,
        "parser_transfer_set",
        results,
        {args.tagged_text: row},
        list(row),
        "UPOS from (word, PTB tag), fitted on EWT train; accuracy on EWT dev's own XPOS column.",
        first_column="text",
    )


if __name__ == "__main__":
    main()
