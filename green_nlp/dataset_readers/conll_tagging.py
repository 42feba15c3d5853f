"""CoNLL-style tagging files (CoNLL-03 NER, WNUT-17, CoNLL-2000 chunking), trained as BIOES (or BIOUL
/ BIO for taggers, such as allennlp-models' `crf_tagger`, whose span metrics read those)."""

import codecs
import logging
import random
import re
from collections.abc import Iterable, Iterator
from typing import Any, Optional

from allennlp.data import DatasetReader, Instance, Token, TokenIndexer
from allennlp.data.fields import MetadataField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer

from green_nlp.data.gold_label_field import GoldLabelField
from green_nlp.dataset_readers.conllu_sentences import whitespace_only
from green_nlp.line_stream import STRAY_BOM, split_lines

logger = logging.getLogger(__name__)

ENCODINGS = ("IOB1", "BIO")
LABEL_ENCODINGS = ("BIOES", "BIOUL", "BIO")
# BIOES prefix -> prefix in each label encoding (BIOUL renames the end and single-word tags)
_PREFIX_FROM_BIOES = {
    "BIOES": {"B": "B", "I": "I", "E": "E", "S": "S"},
    "BIOUL": {"B": "B", "I": "I", "E": "L", "S": "U"},
    "BIO": {"B": "B", "I": "I", "E": "I", "S": "B"},
}
SPLITS = ("all", "train", "dev")
_SPACES = re.compile(" +")


class ConllTaggingFormatError(ValueError):
    """A malformed line; the message starts with `file:line:`."""


def _split_tag(tag: str) -> tuple[str, str]:
    if tag == "O":
        return "O", ""
    prefix, _, label = tag.partition("-")
    return prefix, label


def to_bioes(tags: list[str], encoding: str, where: list[str]) -> list[str]:
    """Convert IOB1 or BIO tags to BIOES; `where[i]` names tag i's `file:line` for errors.

    IOB1 (CoNLL-03 as distributed): `I-X` starts a span unless it continues an X span; `B-X` only
    separates two adjacent X spans. BIO: `B-X` starts a span and `I-X` must continue an X span
    (anything else is an error, not silently repaired).
    """
    starts: list[bool] = []
    labels: list[str] = []
    for i, tag in enumerate(tags):
        prefix, label = _split_tag(tag)
        # `O-ORG` split as prefix O, label ORG and became an ORG span: a gold entity nobody wrote
        if tag != "O" and (prefix not in ("B", "I") or not label):
            raise ConllTaggingFormatError(f"{where[i]}: tag {tag!r} is not O, B-<type> or I-<type> ({encoding})")
        previous = labels[-1] if labels else ""
        if prefix == "O":
            starts.append(False)
        elif prefix == "B":
            if encoding == "IOB1" and previous != label:
                logger.debug(
                    "%s: B-%s does not follow an %s span (accepted, as IOB1 readers do)", where[i], label, label
                )
            starts.append(True)
        else:  # I
            if encoding == "BIO" and previous != label:
                raise ConllTaggingFormatError(
                    f"{where[i]}: {tag} does not continue a {label} span (BIO needs B-{label} first)"
                )
            starts.append(previous != label)
        labels.append(label)
    bioes = []
    for i, label in enumerate(labels):
        if not label:
            bioes.append("O")
            continue
        ends = i + 1 == len(labels) or labels[i + 1] != label or starts[i + 1]
        if starts[i]:
            bioes.append(("S-" if ends else "B-") + label)
        else:
            bioes.append(("E-" if ends else "I-") + label)
    return bioes


def from_bioes(tags: list[str], label_encoding: str) -> list[str]:
    """BIOES tags in `label_encoding` (one of `LABEL_ENCODINGS`); the spans are unchanged."""
    if label_encoding not in LABEL_ENCODINGS:
        raise ValueError(f"label_encoding must be one of {LABEL_ENCODINGS}, got {label_encoding!r}")
    prefixes = _PREFIX_FROM_BIOES[label_encoding]
    converted = []
    for tag in tags:
        prefix, label = _split_tag(tag)
        converted.append("O" if prefix == "O" else f"{prefixes[prefix]}-{label}")
    return converted


def _decoded(file_path: str, file_encoding: str) -> Iterator[tuple[int, str]]:
    """(line number, text) one line at a time, so a wrong encoding is reported at its own line; a
    UTF-8 byte-order mark at the start of the file is dropped."""
    with open(file_path, "rb") as handle:
        # split_lines: a lone CR ends lines in old Mac files (their first line end), as in the runtime's readers
        for number, raw in enumerate(split_lines(handle), start=1):
            if raw.startswith(codecs.BOM_UTF8) and codecs.lookup(file_encoding).name == "utf-8":
                if number > 1:
                    raise ConllTaggingFormatError(f"{file_path}:{number}: {STRAY_BOM}")
                raw = raw[len(codecs.BOM_UTF8) :]
            try:
                line = raw.decode(file_encoding)
            except UnicodeDecodeError as error:
                raise ConllTaggingFormatError(
                    f"{file_path}:{number}: not valid {file_encoding} (byte {raw[error.start]:#04x} at column "
                    f"{error.start + 1}); re-encode the file as UTF-8 or set the reader's file_encoding "
                    '(e.g. "latin-1")'
                ) from None
            if "\x00" in line:
                raise ConllTaggingFormatError(
                    f"{file_path}:{number}: holds a NUL byte at column {line.index(chr(0)) + 1} (binary data?)"
                )
            yield number, line


def read_columns(file_path: str, file_encoding: str = "utf-8") -> Iterator[tuple[list[list[str]], list[str]]]:
    """Sentences as (rows of columns, `file:line` of each row); `-DOCSTART-` and blank lines split.

    Every row must have as many columns as the file's first row. A file without any row is an error
    (AllenNLP would otherwise stop with an assertion asking to open an issue).
    """
    rows: list[list[str]] = []
    where: list[str] = []
    width: Optional[int] = None
    for number, line in _decoded(file_path, file_encoding):
        text = line.rstrip("\r\n")
        if text.strip(" \t") and not text.strip():
            raise ConllTaggingFormatError(f"{file_path}:{number}: {whitespace_only(text)}")
        # Space-separated files split at spaces and tabs only: str.split() also split at a no-break space
        # inside a word, and the next line was blamed for having fewer columns
        columns = text.split("\t") if "\t" in text else _SPACES.split(text.strip(" "))
        columns = [column.strip() for column in columns]
        if not any(columns) or columns[0] == "-DOCSTART-":
            if rows:
                yield rows, where
            rows, where = [], []
            continue
        if width is None:
            width = len(columns)
            if width < 2:
                raise ConllTaggingFormatError(
                    f"{file_path}:{number}: expected a word and a tag column, found {line.strip()!r}"
                )
        if len(columns) != width or not all(columns):
            raise ConllTaggingFormatError(
                f"{file_path}:{number}: expected {width} non-empty columns like the first line, "
                f"found {len(columns)}: {line.rstrip()!r}"
            )
        rows.append(columns)
        where.append(f"{file_path}:{number}")
    if rows:
        yield rows, where
    if width is None:
        raise ConllTaggingFormatError(
            f"{file_path}:1: file contains no tagged words (it is empty or only blank and -DOCSTART- lines)"
        )


@DatasetReader.register("green_conll_tagging")
class ConllTaggingReader(DatasetReader):
    """
    Word in the first column, tag in the last; tags are converted from `encoding` to
    `label_encoding` (BIOES by default).

    # Parameters

    token_indexers : `Dict[str, TokenIndexer]`, optional
    encoding : `str`, optional (default = `"IOB1"`)
        `"IOB1"` for CoNLL-03 as distributed, `"BIO"` for WNUT-17 and CoNLL-2000.
    split : `str`, optional (default = `"all"`)
        `"train"` / `"dev"` carve a `dev_size`-sentence development set out of the file (seeded
        random choice), as LD-Net did for CoNLL-2000, which has no dev set: `"dev"` yields those
        sentences and `"train"` the rest.
    dev_size : `int`, optional (default = `1000`)
        At least 1 with `split` `"train"` or `"dev"` (checked when the reader is built).
    seed : `int`, optional (default = `13`)
        An integer, so the `"train"` and `"dev"` readers draw the same, disjoint, sets.
    label_encoding : `str`, optional (default = `"BIOES"`)
        The tags the `tags` field carries. `green_ldnet_tagger` is trained and scored on `"BIOES"`.
        allennlp-models' `crf_tagger` (`calculate_span_f1`, constrained decoding) reads `"BIOUL"`
        (BIOES with `L-` for `E-` and `U-` for `S-`) or `"BIO"`: give it the same
        `label_encoding` as this reader.
    file_encoding : `str`, optional (default = `"utf-8"`)
        The file's character encoding (`encoding` names the tag scheme). A line that does not
        decode is an error naming file and line; a UTF-8 byte-order mark is accepted.
    """

    def __init__(
        self,
        token_indexers: Optional[dict[str, TokenIndexer]] = None,
        encoding: str = "IOB1",
        split: str = "all",
        dev_size: int = 1000,
        seed: int = 13,
        label_encoding: str = "BIOES",
        file_encoding: str = "utf-8",
        **kwargs: Any,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        if encoding not in ENCODINGS:
            raise ValueError(f"encoding must be one of {ENCODINGS}, got {encoding!r}")
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
        if label_encoding not in LABEL_ENCODINGS:
            raise ValueError(f"label_encoding must be one of {LABEL_ENCODINGS}, got {label_encoding!r}")
        # checked here, not at the first read: random.sample said only "Sample larger than population or is negative"
        if split != "all" and (isinstance(dev_size, bool) or not isinstance(dev_size, int) or dev_size < 1):
            raise ValueError(
                f"dev_size must be a whole number of sentences, at least 1, with split {split!r}; got {dev_size!r}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, got {seed!r}")
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        self._encoding = encoding
        self._split = split
        self._dev_size = dev_size
        self._seed = seed
        self._label_encoding = label_encoding
        try:
            codecs.lookup(file_encoding)
        except LookupError:
            raise ValueError(f"file_encoding {file_encoding!r} is not an encoding Python knows") from None
        self._file_encoding = file_encoding

    def _read(self, file_path: str) -> Iterable[Instance]:
        sentences = list(read_columns(file_path, self._file_encoding))
        if self._split != "all":
            if len(sentences) <= self._dev_size:
                raise ValueError(
                    f"{file_path} has {len(sentences)} sentences, too few to carve {self._dev_size} for dev"
                )
            dev = set(random.Random(self._seed).sample(range(len(sentences)), self._dev_size))
            sentences = [s for i, s in enumerate(sentences) if (i in dev) == (self._split == "dev")]
        for rows, where in self.shard_iterable(sentences):
            words = [row[0] for row in rows]
            written = [row[-1] for row in rows]
            tags = from_bioes(to_bioes(written, self._encoding, where), self._label_encoding)
            yield self.text_to_instance(words, tags, _with_written_tags(where, written, tags))

    def text_to_instance(
        self, words: list[str], tags: Optional[list[str]] = None, sources: Optional[list[str]] = None
    ) -> Instance:
        """`sources`, optional: each word's `file:line`, named when a gold tag is one the model never saw
        (it is indexed as `UNSEEN_LABEL` and scored as an error, see `green_nlp.data.gold_label_field`);
        the gold tags are also kept as text in the metadata (`tags`), so the span F1 can count spans
        of such tags."""
        tokens = TextField([Token(word) for word in words], self._token_indexers)
        metadata: dict[str, Any] = {"words": words}
        fields: dict[str, Any] = {"tokens": tokens}
        if tags is not None:
            fields["tags"] = GoldLabelField(tags, tokens, label_namespace="labels", sources=sources)
            metadata["tags"] = tags
        fields["metadata"] = MetadataField(metadata)
        return Instance(fields)


def _with_written_tags(where: list[str], written: list[str], tags: list[str]) -> list[str]:
    """Each word's `file:line`, plus the tag as the file writes it where conversion changed it, so that
    a warning about an unseen `S-product` also shows the `B-product` the user wrote."""
    return [
        place if tag == own else f"{place}, where the file says {own!r}"
        for place, own, tag in zip(where, written, tags)
    ]


def bioes_to_spans(tags: list[str], classes_to_ignore: Optional[list[str]] = None) -> list[tuple[str, tuple[int, int]]]:
    """Typed inclusive spans `(label, (start, end))` of a BIOES sequence, seqeval-style lenient:
    an `I-`/`E-` that continues no span of its type starts one, so ill-formed predictions still
    count (and are usually wrong) rather than vanish."""
    ignore = set(classes_to_ignore or [])
    spans: list[tuple[str, tuple[int, int]]] = []
    open_label, open_start = "", -1

    def close(end: int) -> None:
        nonlocal open_label
        if open_label and open_label not in ignore:
            spans.append((open_label, (open_start, end)))
        open_label = ""

    for i, tag in enumerate(tags):
        prefix, label = _split_tag(tag)
        continues = prefix in ("I", "E") and open_label == label
        if not continues:
            close(i - 1)
            if prefix in ("B", "I"):
                open_label, open_start = label, i
            elif prefix in ("S", "E") and label not in ignore:
                spans.append((label, (i, i)))
        elif prefix == "E":
            close(i)
    close(len(tags) - 1)
    return spans
