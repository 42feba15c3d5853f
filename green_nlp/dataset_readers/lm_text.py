"""Raw text for LD-Net's language models: one whitespace-tokenized sentence per line
(`green_nlp.dataset_readers.lm_corpus` builds such a corpus)."""

import errno
import logging
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Optional

from allennlp.data import DatasetReader, Instance, Token, TokenIndexer
from allennlp.data.fields import TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer

from green_nlp.line_stream import decode_line, read_lines

logger = logging.getLogger(__name__)


class LmTextFormatError(ValueError):
    """An LM text file that cannot be read; the message starts with `file:line:`."""


@DatasetReader.register("green_lm_text")
class LmTextReader(DatasetReader):
    """
    Each non-blank line is a sequence of space-separated tokens; lines longer than
    `max_sequence_length` are cut into pieces, and pieces of one token (nothing to predict) are
    skipped.

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional (default = `{"tokens": SingleIdTokenIndexer()}`)
    max_sequence_length : `int`, optional (default = `60`)

    To subsample a large corpus, AllenNLP's own `max_instances` stops after that many sequences.
    """

    def __init__(
        self, token_indexers: Optional[dict[str, TokenIndexer]] = None, max_sequence_length: int = 60, **kwargs: Any
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        if max_sequence_length < 2:
            raise ValueError(f"max_sequence_length must be at least 2, got {max_sequence_length}")
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        self._max_sequence_length = max_sequence_length

    def _read(self, file_path: str) -> Iterable[Instance]:
        yield from self.shard_iterable(self._sequences(file_path))

    def _sequences(self, file_path: str) -> Iterator[Instance]:
        """The pieces of every line. Read as bytes a line at a time (`read_lines`, as the other
        readers: a lone CR ends lines too), so bytes that are not UTF-8 are named at their line
        (the text decoder's error named neither); a file without a piece is refused, where AllenNLP
        stopped with an assertion ("Found no field that needed padding")."""
        if not os.path.exists(file_path):  # as `open` says it, with the file name the CLI's hint reads
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), file_path)
        pieces = 0
        for number, raw in read_lines(Path(file_path)):
            line, problem = decode_line(raw)
            if line is None:
                raise LmTextFormatError(f"{file_path}:{number}: {problem}; re-encode the file as UTF-8")
            words = line.split()
            for start in range(0, len(words), self._max_sequence_length):
                piece = words[start : start + self._max_sequence_length]
                if len(piece) < 2:
                    continue
                pieces += 1
                yield self.text_to_instance(piece)
        if not pieces:
            raise LmTextFormatError(
                f"{file_path}:1: file contains no sequence of two or more words (it is empty, or holds only "
                "blank or one-word lines): an LM reads one whitespace-tokenized sentence a line"
            )

    def text_to_instance(self, words: list[str]) -> Instance:
        return Instance({"tokens": TextField([Token(word) for word in words], self._token_indexers)})


@TokenIndexer.register("green_lm_tokens")
class LmTokenIndexer(SingleIdTokenIndexer):
    """Word ids in a trained LM's vocabulary (copied into `namespace` by `green_dense_lm`'s
    `pretrained_file`). It counts nothing, so the tagger's training data never grows that
    vocabulary: words the LM has not seen map to its OOV id."""

    def __init__(self, namespace: str = "ldnet_lm_tokens", **kwargs: Any) -> None:
        super().__init__(namespace=namespace, **kwargs)

    def count_vocab_items(self, token: Token, counter: dict[str, dict[str, int]]) -> None:
        return None
