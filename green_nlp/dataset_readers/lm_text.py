"""Raw text for LD-Net's language models: one whitespace-tokenized sentence per line.

`python -m green_nlp.dataset_readers.lm_text OUT_DIR` builds such a corpus from the IMDB unlabeled
reviews (spaCy's rule-based tokenizer, as the raw-text predictors use) plus the training text of
the tagging sets, so the LMs see both in-domain and task text.
"""
import argparse
import gzip
import json
import logging
import random
import re
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional

from allennlp.data import DatasetReader, Instance, Token, TokenIndexer
from allennlp.data.fields import TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer

logger = logging.getLogger(__name__)


@DatasetReader.register("green_lm_text")
class LmTextReader(DatasetReader):
    """
    Each non-blank line is a sequence of space-separated tokens; lines longer than
    `max_sequence_length` are cut into pieces, and pieces of one token (nothing to predict) are
    skipped.

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    max_sequence_length : `int`, optional (default = `60`)
    max_sequences : `int`, optional
        Stop after this many sequences (a quick way to subsample a large corpus).
    """

    def __init__(self, token_indexers: Optional[Dict[str, TokenIndexer]] = None, max_sequence_length: int = 60,
                 max_sequences: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        if max_sequence_length < 2:
            raise ValueError(f"max_sequence_length must be at least 2, got {max_sequence_length}")
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        self._max_sequence_length = max_sequence_length
        self._max_sequences = max_sequences

    def _read(self, file_path: str) -> Iterable[Instance]:
        yield from self.shard_iterable(self._sequences(file_path))

    def _sequences(self, file_path: str) -> Iterator[Instance]:
        count = 0
        with open(file_path, encoding="utf-8") as text:
            for line in text:
                words = line.split()
                for start in range(0, len(words), self._max_sequence_length):
                    piece = words[start:start + self._max_sequence_length]
                    if len(piece) < 2:
                        continue
                    if self._max_sequences is not None and count >= self._max_sequences:
                        return
                    count += 1
                    yield self.text_to_instance(piece)

    def text_to_instance(self, words: List[str]) -> Instance:  # type: ignore
        return Instance({"tokens": TextField([Token(word) for word in words], self._token_indexers)})


_MARKUP = re.compile(r"<[^>]{1,20}>")


def imdb_sentences(path: Path, max_tokens: int) -> Iterator[List[str]]:
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


def column_sentences(path: Path) -> Iterator[List[str]]:
    """First-column words of each sentence of a CoNLL-style file (`-DOCSTART-` skipped)."""
    words: List[str] = []
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


def build_corpus(out_dir: Path, imdb: Path, tagging_files: List[Path], imdb_tokens: int,
                 dev_fraction: float = 0.01, seed: int = 13) -> Dict[str, int]:
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


def main(argv: Optional[List[str]] = None) -> None:
    from green_nlp.data_paths import data_path

    parser = argparse.ArgumentParser(description="Build the LD-Net LM corpus (IMDB unlabeled + tagging train text).")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--imdb-tokens", type=int, default=2_000_000, help="IMDB tokens to take (the file has 11.7M)")
    args = parser.parse_args(argv)
    tagging = [data_path("ner", "conll2003", "eng.train"), data_path("ner", "wnut17", "wnut17train.conll"),
               data_path("chunk", "conll2000", "train.txt")]
    counts = build_corpus(args.out_dir, data_path("cls", "imdb", "train_unsup.jsonl.gz"), tagging, args.imdb_tokens)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()


@TokenIndexer.register("green_lm_tokens")
class LmTokenIndexer(SingleIdTokenIndexer):
    """Word ids in a trained LM's vocabulary (copied into `namespace` by `green_dense_lm`'s
    `pretrained_file`). It counts nothing, so the tagger's training data never grows that
    vocabulary: words the LM has not seen map to its OOV id."""

    def __init__(self, namespace: str = "ldnet_lm_tokens", **kwargs: Any) -> None:
        super().__init__(namespace=namespace, **kwargs)

    def count_vocab_items(self, token: Token, counter: Dict[str, Dict[str, int]]) -> None:
        return None
