"""The shipped parser on running text: UD English-EWT rebuilt as paragraphs, one a line, so that
the parser finds the sentence boundaries itself, as the CoNLL 2018 shared task's raw-text setting
and a user's file of paragraphs ask of it.

    python -m benchmarks.parser.raw_paragraphs [--model en-ewt-parser] [--splits dev test]

Why: the model card's raw-text figures give the parser each gold sentence's text as a line, so
sentence splitting is only tested inside a sentence. Here each paragraph (`# newpar`, or a new
document) is its sentences' `# text` joined as the treebank writes them (a space, or none where the
last word says `SpaceAfter=No`), and three ways of reading it are scored by the shared task's own
evaluation, sentence boundaries (Sentences F1) included:

- `one sentence a line`: each gold sentence's text as a line (the card's raw-text setting);
- `one paragraph a line, split`: `green-nlp parse --split-sentences` (the Python API's `parse`);
- `one paragraph a line, unsplit`: `green-nlp parse`'s default, a line is one sentence.

Results: benchmarks/results/parser_raw_paragraphs.{json,md}.
"""

import argparse
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import conllu

from benchmarks.common import RESULTS, hardware_description, write_results
from green_nlp.evaluation.conll18 import score_conllu
from green_nlp.settings import data_path

SPLIT_FILES = {"dev": "en_ewt-ud-dev.conllu", "test": "en_ewt-ud-test.conllu"}
COLUMNS = ["sentences_f1", "tokens_f1", "words_f1", "upos_f1", "lemmas", "ufeats", "uas", "las", "clas", "mlas"]


@dataclass(frozen=True)
class Paragraph:
    text: str
    sentences: int


def space_after(sentence: conllu.TokenList) -> bool:
    """Whether whitespace follows the sentence in its document: not where its last surface token
    (a multiword token's line, else the last word) says `SpaceAfter=No`."""
    last_word = max((token["id"] for token in sentence if isinstance(token["id"], int)), default=0)
    for token in sentence:
        token_id = token["id"]
        covers_last = token_id == last_word or (
            isinstance(token_id, tuple) and token_id[1] == "-" and token_id[2] == last_word
        )
        if covers_last and (token["misc"] or {}).get("SpaceAfter") == "No":
            return False
    return True


def paragraphs(sentences: list[conllu.TokenList]) -> list[Paragraph]:
    """The treebank's paragraphs in order: a new one at each `# newpar` or `# newdoc`."""
    found: list[Paragraph] = []
    text, count = "", 0
    for sentence in sentences:
        starts = any(key.startswith(("newpar", "newdoc")) for key in sentence.metadata)
        if starts and count:
            found.append(Paragraph(text.strip(), count))
            text, count = "", 0
        text += sentence.metadata["text"] + (" " if space_after(sentence) else "")
        count += 1
    if count:
        found.append(Paragraph(text.strip(), count))
    return found


def write_parses(parse: Callable[[str], Any], lines: list[str], out: Path) -> None:
    with open(out, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(parse(line).to_conllu())


def score_row(gold_path: Path, predicted: Path) -> dict[str, Any]:
    scores = score_conllu(gold_path, predicted)
    return {
        "sentences_f1": scores.sentences,
        "tokens_f1": scores.tokens,
        "words_f1": scores.words,
        "upos_f1": scores.upos,
        "lemmas": scores.lemmas,
        "ufeats": scores.ufeats,
        "uas": scores.uas,
        "las": scores.las,
        "clas": scores.clas,
        "mlas": scores.mlas,
        "words": scores.gold_words,
    }


def measure(model: Any, gold_path: Path, split: str, folder: Path) -> dict[str, dict[str, Any]]:
    """The three readings of one gold file (rows named `split: reading`), scored against it."""
    from green_nlp.runtime.parser_segmenter import TextSegmenter

    with open(gold_path, encoding="utf-8") as handle:
        gold = list(conllu.parse_incr(handle))
    found = paragraphs(gold)
    texts = [paragraph.text for paragraph in found]
    splitting = model.segmenter
    unsplit = TextSegmenter(splitting.language, split_sentences=False, rules=splitting.rules)
    rows: dict[str, dict[str, Any]] = {}
    readings = (
        ("one sentence a line", [sentence.metadata["text"] for sentence in gold], splitting),
        ("one paragraph a line, split", texts, splitting),
        ("one paragraph a line, unsplit", texts, unsplit),
    )
    for name, lines, segmenter in readings:
        model.segmenter = segmenter
        predicted = folder / f"{split}-{len(rows)}.conllu"
        write_parses(model.parse, lines, predicted)
        flagged = sum(unsplit.holds_several_sentences(line) for line in lines)  # the CLI's count without the split
        rows[f"{split}: {name}"] = {**score_row(gold_path, predicted), "lines": len(lines), "flagged_lines": flagged}
    model.segmenter = splitting
    rows[f"{split}: one paragraph a line, split"]["gold_sentences"] = len(gold)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="en-ewt-parser", help="a shipped parser's name or an exported folder")
    parser.add_argument("--precision", default="auto", choices=("auto", "fp32", "int8"))
    parser.add_argument("--splits", nargs="+", default=["dev", "test"], choices=sorted(SPLIT_FILES))
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args()
    from green_nlp.runtime import load

    model = load(args.model, precision=args.precision, threads=1)
    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for split in args.splits:
            gold_path = data_path("ud", "UD_English-EWT", SPLIT_FILES[split])
            if not gold_path.is_file():
                raise SystemExit(f"UD English-EWT {split} not found at {gold_path}: set GREEN_NLP_DATA")
            rows.update(measure(model, gold_path, split, Path(folder)))
    results = {"machine": hardware_description(), "model": args.model, "rows": rows}
    paragraph_counts = ", ".join(
        f"{split} {rows[f'{split}: one paragraph a line, split']['lines']:,} paragraphs of "
        f"{rows[f'{split}: one paragraph a line, split']['gold_sentences']:,} sentences"
        for split in args.splits
    )
    note = (
        f"UD English-EWT ({paragraph_counts}) through `{args.model}`, scored by the CoNLL 2018 shared task's "
        "evaluation (relations without subtypes; F1 where the words are the parser's own). one sentence a line: each "
        "gold sentence's text as a line (sentence boundaries given, as the model card's raw-text figures); one "
        "paragraph a line: each paragraph (`# newpar` or a new document) as the treebank's sentence texts joined, "
        "split: `green-nlp parse --split-sentences` (spaCy's rule-based sentencizer, as in Python's `parse`), "
        "unsplit: `green-nlp parse`'s default (a line is one sentence). flagged_lines: the lines `green-nlp "
        "parse` without --split-sentences counts in its summary as holding several sentences. The CoNLL 2018 "
        "en_ewt raw-text setting (UD 2.2) was also documents in, sentences found by the system. Produced by "
        "`python -m benchmarks.parser.raw_paragraphs`."
    )
    write_results(
        args.output_dir,
        "parser_raw_paragraphs",
        results,
        rows,
        COLUMNS + ["words", "lines", "flagged_lines"],
        note,
        "reading",
    )


if __name__ == "__main__":
    main()
