"""Words unknown to the shipped parser, per corpus of the data folder: where `green-nlp parse`'s note
about text in another language fires, and where it must not.

    python -m benchmarks.parser.unknown_words [--model en-ewt-parser]

Each corpus's sentences are given as raw text lines (a treebank's `# text`, else its words joined
by spaces; Chinese without spaces, as it is written) and tokenized by the model's own segmenter, as
`green-nlp parse` reads a file; the counts are `green_nlp.runtime.unknown_words`'s, and `note` says
whether its note would follow the run's summary. `mostly unknown sentences` is the share of
sentences whose words are over half unknown: why the note looks at a whole run and not at a line.

Results: benchmarks/results/parser_unknown_words.{json,md}.
"""

import argparse
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.common import RESULTS, write_results
from green_nlp.settings import data_path

# name -> (path parts under the data folder, kind, language)
CORPORA: dict[str, tuple[tuple[str, ...], str, str]] = {
    "UD English-EWT test": (("ud", "UD_English-EWT", "en_ewt-ud-test.conllu"), "conllu", "en"),
    "CoNLL-03 English test (news)": (("ner", "conll2003", "eng.testb"), "conll", "en"),
    "WNUT-17 test (tweets)": (("ner", "wnut17", "emerging.test.annotated"), "conll", "en"),
    "CoNLL-2000 test (WSJ)": (("chunk", "conll2000", "test.txt"), "conll", "en"),
    "UD Wolof-WTB test": (("ud", "UD_Wolof-WTB", "wo_wtb-ud-test.conllu"), "conllu", "wo"),
    "UD Tamil-TTB test": (("ud", "UD_Tamil-TTB", "ta_ttb-ud-test.conllu"), "conllu", "ta"),
    "UD Chinese-GSD test": (("ud", "UD_Chinese-GSD_v1.3", "zh-ud-test.conllu"), "conllu", "zh"),
}


def text_lines(path: Path, kind: str, language: str) -> Iterator[str]:
    """A corpus's sentences as the raw text lines a user would give `green-nlp parse`."""
    joiner = "" if language == "zh" else " "
    if kind == "conllu":
        from green_nlp.dataset_readers import read_conllu

        for sentence in read_conllu(path):
            yield sentence.metadata.get("text") or joiner.join(sentence.words)
    else:
        from green_nlp.dataset_readers.conll_tagging import read_columns

        for rows, _ in read_columns(str(path)):
            yield joiner.join(row[0] for row in rows)


def measure(model: Any, lines: Iterator[str]) -> dict[str, Any]:
    from green_nlp.runtime.unknown_words import UNKNOWN, WORDS, count_unknown, unknown_words_note

    totals: Counter = Counter()
    sentences = mostly_unknown = 0
    for line in lines:
        for _, words in model.segmenter.segment(line):
            counted, unknown = count_unknown(words, model.inputs.words)
            totals.update({WORDS: counted, UNKNOWN: unknown})
            sentences += 1
            mostly_unknown += unknown > 0.5 * counted > 0
    note = unknown_words_note(totals, model.segmenter.language)
    return {
        "sentences": sentences,
        "words": totals[WORDS],
        "unknown_share": round(totals[UNKNOWN] / max(1, totals[WORDS]), 4),
        "mostly_unknown_sentences": round(mostly_unknown / max(1, sentences), 4),
        "note": "yes" if note else "no",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="en-ewt-parser", help="a shipped parser's name or an exported folder")
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    from green_nlp.runtime import load
    from green_nlp.runtime.unknown_words import MIN_WORDS_FOR_NOTE, UNKNOWN_SHARE_NOTE

    model = load(args.model, threads=1)
    rows: dict[str, dict[str, Any]] = {}
    for name, (parts, kind, language) in CORPORA.items():
        path = data_path(*parts)
        if not path.is_file():
            print(f"skipped {name}: {path} not found (set GREEN_NLP_DATA)")
            continue
        rows[name] = {"language": language, **measure(model, text_lines(path, kind, language))}
    if not rows:
        raise SystemExit("no corpus found: set GREEN_NLP_DATA")
    note = (
        f"`{args.model}`'s word vocabulary ({len(model.inputs.words.index):,} entries) against each corpus's "
        "sentences read as raw text lines and tokenized by the model's segmenter; words with a letter only. "
        f"note: whether `green-nlp parse` on the whole corpus writes the unknown-words note (over "
        f"{UNKNOWN_SHARE_NOTE:.0%} unknown, at least {MIN_WORDS_FOR_NOTE} words). mostly_unknown_sentences: "
        "sentences over half unknown. Produced by `python -m benchmarks.parser.unknown_words`."
    )
    results = {"model": args.model, "threshold": UNKNOWN_SHARE_NOTE, "min_words": MIN_WORDS_FOR_NOTE, "rows": rows}
    columns = ["language", "sentences", "words", "unknown_share", "mostly_unknown_sentences", "note"]
    write_results(args.output_dir, "parser_unknown_words", results, rows, columns, note, "corpus")


if __name__ == "__main__":
    main()
