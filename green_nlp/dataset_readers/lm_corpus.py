"""`python -m green_nlp.dataset_readers.lm_corpus OUT_DIR`: the LD-Net LM corpus.

The IMDB unlabeled reviews (spaCy's rule-based tokenizer, as the raw-text predictors use) plus the
training text of the tagging sets, one sentence a line, shuffled, 1 % held out as `dev.txt`; read
by the `green_lm_text` reader. (A module of its own, with no registrations, so `python -m` works.)
"""

import argparse
import gzip
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Optional

_MARKUP = re.compile(r"<[^>]{1,20}>")


def imdb_sentences(path: Path, max_tokens: int) -> Iterator[list[str]]:
    """Tokenized sentences of the IMDB reviews (HTML line breaks removed) until `max_tokens`."""
    from green_nlp.predictors.spacy_segmenter import SpacySegmenter

    segmenter = SpacySegmenter("en")
    seen = 0
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            text = _MARKUP.sub(" ", json.loads(line)["text"])
            for words in segmenter.split(text):
                yield words
                seen += len(words)
                if seen >= max_tokens:
                    return


def write_review_sentences(
    imdb: Path,
    out_file: Path,
    count: Optional[int] = None,
    min_tokens: int = 4,
    max_tokens: int = 40,
    questions_only: bool = False,
) -> int:
    """Write the first `count` (default: all) IMDB sentences of `min_tokens`-`max_tokens` tokens, one a line: the
    unlabeled, sentence-sized text that SST-2's teacher labels for distillation. With
    `questions_only`, only sentences ending in "?": the nearest thing to a question corpus here
    (for TREC). Returns how many."""
    kept: list[str] = []
    for words in imdb_sentences(Path(imdb), max_tokens=10**12):
        if min_tokens <= len(words) <= max_tokens and (not questions_only or words[-1] == "?"):
            kept.append(" ".join(words))
            if len(kept) == count:
                break
    Path(out_file).write_text("".join(sentence + "\n" for sentence in kept), encoding="utf-8")
    return len(kept)


def column_sentences(path: Path) -> Iterator[list[str]]:
    """First-column words of each sentence of a CoNLL-style file (`-DOCSTART-` skipped)."""
    words: list[str] = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            fields = line.split()
            if not fields or fields[0] == "-DOCSTART-":
                if words:
                    yield words
                words = []
                continue
            words.append(fields[0])
    if words:
        yield words


def build_corpus(
    out_dir: Path, imdb: Path, tagging_files: list[Path], imdb_tokens: int, dev_fraction: float = 0.01, seed: int = 13
) -> dict[str, int]:
    """Write `train.txt` / `dev.txt` (one sentence a line) and return their token counts."""
    sentences = [" ".join(words) for words in imdb_sentences(imdb, imdb_tokens)]
    for path in tagging_files:
        sentences.extend(" ".join(words) for words in column_sentences(path))
    random.Random(seed).shuffle(sentences)
    dev_size = max(1, int(len(sentences) * dev_fraction))
    out_dir.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, part in (("dev", sentences[:dev_size]), ("train", sentences[dev_size:])):
        (out_dir / f"{name}.txt").write_text("\n".join(part) + "\n", encoding="utf-8")
        counts[name] = sum(len(sentence.split()) for sentence in part)
    return counts


def main(argv: Optional[list[str]] = None) -> None:
    from green_nlp.settings import data_path

    parser = argparse.ArgumentParser(description="Build the LD-Net LM corpus (IMDB unlabeled + tagging train text).")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--imdb-tokens", type=int, default=2_000_000, help="IMDB tokens to take (the file has 11.7M)")
    args = parser.parse_args(argv)
    tagging = [
        data_path("ner", "conll2003", "eng.train"),
        data_path("ner", "wnut17", "wnut17train.conll"),
        data_path("chunk", "conll2000", "train.txt"),
    ]
    counts = build_corpus(args.out_dir, data_path("cls", "imdb", "train_unsup.jsonl.gz"), tagging, args.imdb_tokens)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
