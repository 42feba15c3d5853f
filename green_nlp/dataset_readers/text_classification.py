"""Text classification files (SST-2 tsv, TREC, IMDB jsonl) as `(text, label)` examples, and the
AllenNLP reader that turns them into tokens + label for a transformer teacher.

Formats (chosen by `format`, or by the file name with `"auto"`):

- `sst2` (`*.tsv`): `label<TAB>text`, with a header line `label<TAB>sentence` or `label<TAB>content`;
  a header the other way round (`sentence<TAB>label`, as GLUE's SST-2 files have it) puts the text
  first. Without a header, a line whose label column holds several words and whose text is one
  word is refused as swapped columns, not learnt as a class named after a sentence.
- `trec` (`*.txt`, latin-1): `COARSE:fine question`; the label is the coarse or the fine class.
- `jsonl` (`*.jsonl`, `*.jsonl.gz`): one object per line with `text` and `label` (`null` for
  IMDB's `train_unsup`: an unlabeled example), a string or an integer, stripped and never empty as
  in `.tsv` files (a boolean is refused). Teacher caches are jsonl too (their header line, an
  object with a `teacher_cache` key, is skipped).
- `lines`: raw text, one document per line, no labels (what `allennlp predict` gets).

Readable labels: a reader's `label_names` maps the labels as written in the file to the names the
model should learn, predict and report (SST-2: `{"0": "negative", "1": "positive"}`). A label that
is already one of the names is kept, so caches and files written with the names read the same.

Empty documents: a blank line is skipped (in `lines` it still counts as a line, so line numbers
stay those of the file); a labeled line whose text is empty is skipped with a warning naming
`file:line`, and the count of such lines is logged. A labeled file with no example left (empty, or
only a header and blank lines) is refused. Anything else malformed raises `TextFormatError` naming
`file:line`.
"""

import codecs
import errno
import itertools
import json
import logging
import os
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, TypeVar

from allennlp.data import DatasetReader, Instance, TokenIndexer, Tokenizer
from allennlp.data.fields import TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer
from allennlp.data.tokenizers import WhitespaceTokenizer

from green_nlp.data.gold_label_field import UNSEEN_LABEL, GoldLabel
from green_nlp.data.teacher_cache import is_header
from green_nlp.line_stream import DamagedInput, read_lines

logger = logging.getLogger(__name__)

FORMATS = ("auto", "sst2", "trec", "jsonl", "lines")
SPLITS = ("all", "train", "dev")
SST2_HEADERS = ({"label", "sentence"}, {"label", "content"})
LABEL_FIRST, TEXT_FIRST = False, True  # the SST-2 column orders


class TextFormatError(ValueError):
    """Malformed classification input; the message starts with `file:line:`."""


@dataclass
class TextExample:
    text: str
    label: Optional[str]
    source: str  # "file:line", for error messages and predictions


def detect_format(path: str) -> str:
    name = Path(path).name.lower()
    if name.endswith(".tsv"):
        return "sst2"
    if name.endswith(".jsonl") or name.endswith(".jsonl.gz"):
        return "jsonl"
    if name.endswith(".txt"):
        return "trec"
    raise TextFormatError(f"{path}: cannot tell the format from the file name; set format to one of {FORMATS[1:]}")


def _lines(path: str, encoding: str) -> Iterator[tuple]:
    """(line number, line without its line end). Decoded line by line, so a wrong encoding is
    reported at its own line (a text decoder reads ahead); a UTF-8 byte-order mark at the start of
    the file is dropped (else the SST-2 header would not be recognised); a NUL byte is an error.
    Lines are split by `read_lines` (a lone CR ends lines in old Mac files, as in the other
    readers), and a damaged .gz (truncated, or not gzip at all) is an error naming the file."""
    if not os.path.exists(path):  # as `open` says it, with the file name the CLI's hint reads
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    utf8 = codecs.lookup(encoding).name == "utf-8"
    try:
        for number, raw in read_lines(Path(path)):
            if number == 1 and utf8 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8) :]
            try:
                line = raw.decode(encoding)
            except UnicodeDecodeError as error:
                raise TextFormatError(
                    f"{path}:{number}: not valid {encoding} ({error.reason} at column "
                    f"{error.start + 1}); re-encode the file as UTF-8"
                ) from error
            if "\x00" in line:
                raise TextFormatError(
                    f"{path}:{number}: holds a NUL byte at column {line.index(chr(0)) + 1} (binary data?)"
                )
            yield number, line.rstrip("\r\n")
    except DamagedInput as error:  # an EOFError or BadGzipFile named no file and was blamed on the data loader
        raise TextFormatError(str(error)) from None


def _sst2_header(line: str) -> Optional[bool]:
    """The column order a header line names (`TEXT_FIRST` for `sentence<TAB>label`), or None where
    the line is not a header."""
    columns = [column.strip() for column in line.strip().split("\t")]
    if set(columns) not in SST2_HEADERS or len(columns) != 2:
        return None
    return TEXT_FIRST if columns[1] == "label" else LABEL_FIRST


def _parse_sst2(path: str, number: int, line: str, order: bool = LABEL_FIRST) -> TextExample:
    parts = line.split("\t")
    layout = "text<TAB>label" if order == TEXT_FIRST else "label<TAB>text"
    if len(parts) != 2:
        raise TextFormatError(f"{path}:{number}: expected '{layout}' (2 columns), found {len(parts)}")
    label, text = (parts[1].strip(), parts[0].strip()) if order == TEXT_FIRST else (parts[0].strip(), parts[1].strip())
    if not label:
        raise TextFormatError(f"{path}:{number}: empty label")
    if order == LABEL_FIRST and len(label.split()) > 1 and len(text.split()) == 1:
        raise TextFormatError(
            f"{path}:{number}: the label column holds several words ({label[:40]!r}) and the text one "
            f"({text[:40]!r}): the columns look swapped; write 'label<TAB>text', or start the file with "
            "the header line 'sentence<TAB>label'"
        )
    return TextExample(text, label, f"{path}:{number}")


def _parse_trec(path: str, number: int, line: str, fine_labels: bool) -> TextExample:
    label, _, text = line.partition(" ")
    coarse, colon, fine = label.partition(":")
    if not colon or not coarse or not fine or not coarse.isupper():
        raise TextFormatError(f"{path}:{number}: expected 'COARSE:fine question', found {line[:40]!r}")
    return TextExample(text.strip(), label if fine_labels else coarse, f"{path}:{number}")


def _jsonl_record(path: str, number: int, line: str) -> Any:
    """The JSON value of one line. Python's reader also fails with a bare ValueError (an integer of
    over `sys.get_int_max_str_digits()` digits) or a RecursionError (deep nesting), which named no
    file; every failure is a `TextFormatError` at the line."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        raise TextFormatError(f"{path}:{number}: not JSON ({error.msg})") from error
    except ValueError:  # after JSONDecodeError, its subclass: what else json.loads raises is the digits cap
        raise TextFormatError(
            f"{path}:{number}: holds a number of over {sys.get_int_max_str_digits():,} digits, which "
            "Python's JSON reader refuses; write it as a string or drop it"
        ) from None
    except RecursionError:
        raise TextFormatError(
            f"{path}:{number}: JSON nested too deeply to read (over about {sys.getrecursionlimit():,} "
            'levels); a line is an object such as {"text": ..., "label": ...}'
        ) from None


def _parse_jsonl(path: str, number: int, record: Any) -> TextExample:
    """An example from one parsed line. The label is read as the .tsv reader reads its column:
    stripped, and refused when empty; a boolean is refused too (it became a class "True")."""
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise TextFormatError(f"{path}:{number}: expected an object with a string 'text'")
    label = record.get("label")
    if label is not None and (isinstance(label, bool) or not isinstance(label, (str, int))):
        raise TextFormatError(
            f"{path}:{number}: 'label' must be a string, an integer or null, got {json.dumps(label)[:40]}"
        )
    if isinstance(label, str):
        label = label.strip()
        if not label:
            raise TextFormatError(f"{path}:{number}: empty label (write null for an unlabeled example)")
    return TextExample(record["text"].strip(), None if label is None else str(label), f"{path}:{number}")


def read_examples(
    path: str, format: str = "auto", fine_labels: bool = False, encoding: Optional[str] = None
) -> Iterator[TextExample]:
    """
    Stream the examples of one file. In `lines` format every line is an example (empty ones
    included, so predictions stay aligned with the input); elsewhere empty documents are skipped
    as described in the module docstring.
    """
    path = str(path)
    if format not in FORMATS:
        raise TextFormatError(f"unknown format {format!r}; expected one of {FORMATS}")
    if format == "auto":
        format = detect_format(path)
    encoding = encoding or ("latin-1" if format == "trec" else "utf-8")
    skipped = read = 0
    order = LABEL_FIRST
    for number, line in _lines(path, encoding):
        if format == "lines":
            yield TextExample(line.strip(), None, f"{path}:{number}")
            continue
        if not line.strip():
            continue
        if format == "sst2":
            header = _sst2_header(line) if number == 1 else None
            if header is not None:
                order = header
                continue
            example = _parse_sst2(path, number, line, order)
        elif format == "trec":
            example = _parse_trec(path, number, line, fine_labels)
        else:
            record = _jsonl_record(path, number, line)
            if number == 1 and is_header(record):  # a teacher cache's header: its records are jsonl
                continue
            example = _parse_jsonl(path, number, record)
        if not example.text:
            skipped += 1
            logger.warning("%s: empty text, example skipped", example.source)
            continue
        read += 1
        yield example
    if skipped:
        logger.warning("%s: skipped %d examples with empty text", path, skipped)
    if format != "lines" and not read:
        # `allennlp evaluate` on such a file wrote `{}`, and nothing said that the file held nothing
        raise TextFormatError(
            f"{path}:1: file contains no examples (it is empty, or holds only blank lines, a header or empty texts)"
        )


LabelNames = Optional[Mapping[str, str]]


def check_label_names(label_names: LabelNames) -> Optional[dict[str, str]]:
    """A raw-label -> readable-name mapping, checked when a reader is built: names must be distinct
    (two classes under one name would merge them) and no name may be another class's raw label
    (which would make naming depend on whether a label was named already). `None` or `{}`: no names."""
    if not label_names:
        return None
    names = {str(raw): name for raw, name in dict(label_names).items()}
    if not all(isinstance(name, str) and name for name in names.values()):
        raise ValueError(f"label_names must map labels to non-empty strings, got {names}")
    if len(set(names.values())) != len(names):
        raise ValueError(f"label_names gives two labels the same name: {names}")
    clashes = [name for raw, name in names.items() if name in names and name != raw]
    if clashes:
        raise ValueError(f"label_names uses raw labels {clashes} as names of other labels: {names}")
    return names


def readable_label(label: str, label_names: LabelNames, source: str = "") -> str:
    """`label` under its name; a label already named (a value of `label_names`) stays as it is.
    With names given, any other label is an error naming `source`: it would become a class the
    mapping does not know, silently."""
    if not label_names:
        return label
    if label in label_names:
        return label_names[label]
    if label in label_names.values():
        return label
    where = f"{source}: " if source else ""
    raise TextFormatError(f"{where}label {label!r} is neither a key nor a name of label_names {dict(label_names)}")


def check_sampling(every: int, offset: int = 0) -> None:
    """Reject sample settings `subsample` cannot honour (readers call it when built, before reading)."""
    if every < 1:
        raise ValueError(f"every must be >= 1, got {every}")
    if not 0 <= offset < every:
        raise ValueError(f"offset must be in [0, every), got offset {offset} with every {every}")


Item = TypeVar("Item")


def subsample(
    examples: Iterator[Item], every: int = 1, max_examples: Optional[int] = None, offset: int = 0
) -> Iterator[Item]:
    """Every `every`-th example starting at index `offset`, at most `max_examples` of them: a
    deterministic, order-preserving sample that stays balanced on label-sorted files such as IMDB's.
    Two offsets of the same `every` give disjoint samples, e.g. a training sample and a held-out
    validation sample from one file that has no dev split."""
    check_sampling(every, offset)
    stop = None if max_examples is None else offset + max_examples * every
    return itertools.islice(examples, offset, stop, every)


def check_split(split: str, dev_every: int, split_file: Optional[str] = None, reader: bool = False) -> None:
    """Reject held-out settings `split_heldout` cannot honour (readers call it when built, with
    `reader=True`: a reader must name the file it carves, or it would carve the test set too)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    if split != "all" and dev_every < 2:
        raise ValueError(f"dev_every must be >= 2 to carve a dev split, got {dev_every}")
    if reader and split != "all" and not split_file:
        raise ValueError(
            f"split {split!r} needs split_file, the file the dev part is carved from: AllenNLP "
            "reads the test set with the validation reader, which must read it whole"
        )


def split_heldout(examples: Iterator[TextExample], split: str = "all", dev_every: int = 10) -> Iterator[TextExample]:
    """
    Carve a development set out of a file that has none (TREC): `"dev"` keeps every
    `dev_every`-th example (indices dev_every-1, 2*dev_every-1, ...), `"train"` keeps all the others,
    `"all"` keeps everything. Streaming and deterministic, so the teacher, the labeling command and
    the students all see the same two disjoint parts.
    """
    check_split(split, dev_every)
    if split == "all":
        return examples
    in_dev = split == "dev"
    return (example for index, example in enumerate(examples) if ((index + 1) % dev_every == 0) == in_dev)


def split_for_file(path: str, split: str, split_file: Optional[str]) -> str:
    """The part of `path` a reader keeps: `split` for the file it was carved from (`split_file`, which
    `check_split` requires with a split), the whole of any other file. AllenNLP reads the test set
    with the validation reader, so a dev reader must not carve its part out of the test file too."""
    if split == "all" or split_file is None:  # split_file is None only with split "all"
        return split
    try:
        same = os.path.samefile(path, split_file)
    except OSError:
        same = os.path.abspath(path) == os.path.abspath(split_file)
    return split if same else "all"


def reader_examples(
    path: str,
    format: str,
    fine_labels: bool,
    split: str,
    dev_every: int,
    split_file: Optional[str],
    skip_unlabeled: bool,
) -> Iterator[TextExample]:
    """The examples a classification reader keeps from one file, shared by the readers so the order
    stays right: the dev part is carved over *every* example of the file (as green-label-teacher and
    augmentation count them), and only then are unlabeled examples dropped."""
    examples = split_heldout(
        read_examples(path, format, fine_labels), split_for_file(path, split, split_file), dev_every
    )
    if skip_unlabeled:
        examples = _labelled(examples, path)
    return examples


def _labelled(examples: Iterator[TextExample], path: str) -> Iterator[TextExample]:
    """The examples with a label. A file where none has one is refused here, naming it: training
    on it stopped later with a vocabulary error that named neither the file nor the cause."""
    unlabeled = 0
    labelled = False
    for example in examples:
        if example.label is None:
            unlabeled += 1
            continue
        labelled = True
        yield example
    if not labelled and unlabeled:
        raise TextFormatError(
            f"{path}:1: zero labelled examples read: all {unlabeled} examples have a null label, and "
            "skip_unlabeled drops those; give a labelled file (IMDB: train, not train_unsup), or label "
            "the text with a teacher (allennlp green-label-teacher) and train on its cache"
        )


# torch's cross-entropy (allennlp's `basic_classifier`, the MiniLM teacher) leaves this target out
IGNORED_TARGET = -100


class IgnoredUnseenLabel(GoldLabel):
    """A gold class the model never saw, for models that cannot be told about `UNSEEN_LABEL`:
    `basic_classifier` (the teacher) feeds the label to `CrossEntropyLoss`, which skips
    `IGNORED_TARGET`, and to `CategoricalAccuracy`, where no prediction equals it, so the example
    counts as wrong. The warning (once per label, with `file:line`) is `GoldLabel`'s. A batch
    whose every label is unseen has no loss to average (NaN)."""

    def index(self, vocab: Any) -> None:
        super().index(vocab)
        if self._label_id == UNSEEN_LABEL:
            self._label_id = IGNORED_TARGET


@DatasetReader.register("green_text_classification")
class TextClassificationReader(DatasetReader):
    """
    Tokens + label for a classifier that reads text itself (the transformer teacher).

    # Parameters

    tokenizer : `Tokenizer`, optional (default = whitespace)
        For the teacher: `pretrained_transformer` with the MiniLM folder and a `max_length`.
    token_indexers : `Dict[str, TokenIndexer]`, optional
    format : `str`, optional (default = `"auto"`)
        One of `auto`, `sst2`, `trec`, `jsonl`, `lines` (see the module docstring).
    fine_labels : `bool`, optional (default = `False`)
        TREC only: the 50 fine classes (`LOC:city`) instead of the 6 coarse ones (`LOC`).
    skip_unlabeled : `bool`, optional (default = `False`)
        Drop examples without a label (IMDB `train_unsup`) instead of yielding them label-less.
    max_examples : `int`, optional
        Keep only `max_examples` examples of each file (CPU-sized runs; say so).
    sample_every : `int`, optional (default = `1`)
        Take every n-th example (see `subsample`); IMDB's files are sorted by label.
    sample_offset : `int`, optional (default = `0`)
        Start the every-n-th sample here; a different offset gives a disjoint sample.
    split : `str`, optional (default = `"all"`)
        `"train"` / `"dev"`: the two parts of `split_heldout` (a dev set carved from a file that has
        none), taken before sampling.
    dev_every : `int`, optional (default = `10`)
        Every `dev_every`-th example goes to the `"dev"` part.
    split_file : `str`, optional
        The file the split is carved from, required with a split: other files (the test set, which
        AllenNLP reads with the validation reader) are read whole.
    label_names : `Dict[str, str]`, optional
        Readable names for the labels as the file writes them (SST-2: `{"0": "negative", "1":
        "positive"}`), so the vocabulary, predictions and spaCy's `doc.cats` carry the names. Set
        the same mapping on the teacher's and the students' readers.

    A gold class the model's vocabulary lacks (`allennlp evaluate` on a file with a new class) is
    scored as a wrong prediction with one warning naming it and its `file:line` (see
    `IgnoredUnseenLabel`), instead of a KeyError.
    """

    def __init__(
        self,
        tokenizer: Optional[Tokenizer] = None,
        token_indexers: Optional[dict[str, TokenIndexer]] = None,
        format: str = "auto",
        fine_labels: bool = False,
        skip_unlabeled: bool = False,
        max_examples: Optional[int] = None,
        sample_every: int = 1,
        sample_offset: int = 0,
        split: str = "all",
        dev_every: int = 10,
        split_file: Optional[str] = None,
        label_names: Optional[dict[str, str]] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        self.label_names = check_label_names(label_names)
        check_sampling(sample_every, sample_offset)
        check_split(split, dev_every, split_file, reader=True)
        if format not in FORMATS:
            raise ValueError(f"unknown format {format!r}; expected one of {FORMATS}")
        self._tokenizer = tokenizer or WhitespaceTokenizer()
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        self._format, self._fine_labels = format, fine_labels
        self._skip_unlabeled = skip_unlabeled
        self._max_examples, self._sample_every, self._sample_offset = max_examples, sample_every, sample_offset
        self._split, self._dev_every, self._split_file = split, dev_every, split_file

    def examples(self, file_path: str) -> Iterator[TextExample]:
        examples = reader_examples(
            file_path,
            self._format,
            self._fine_labels,
            self._split,
            self._dev_every,
            self._split_file,
            self._skip_unlabeled,
        )
        return subsample(examples, self._sample_every, self._max_examples, self._sample_offset)

    def _read(self, file_path: str) -> Iterator[Instance]:
        for example in self.shard_iterable(self.examples(file_path)):
            yield self.text_to_instance(example.text, example.label, example.source)

    def text_to_instance(self, text: str, label: Optional[str] = None, source: str = "") -> Instance:
        fields: dict[str, Any] = {"tokens": TextField(self._tokenizer.tokenize(text))}
        if label is not None:
            fields["label"] = IgnoredUnseenLabel(readable_label(label, self.label_names, source), source=source or None)
        return Instance(fields)

    def apply_token_indexers(self, instance: Instance) -> None:
        instance.fields["tokens"].token_indexers = self._token_indexers  # type: ignore[attr-defined]
