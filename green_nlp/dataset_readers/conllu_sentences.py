"""Streaming, validating CoNLL-U reading on top of the `conllu` package.

`conllu` parses fields well but reports neither file nor line, and a treebank with one bad line
should tell the user exactly where to look. So each line is checked here first (UTF-8, no NUL,
column count; ID and HEAD with `conllu`'s own value parsers, whose ParseException is re-raised
with file, line and column; one root, no cycle) and every error names `file:line`; `conllu` then
parses the checked block. A UTF-8 byte-order mark at the start of the file is accepted.

Multiword tokens (`1-2`) and empty nodes (`1.1`) are legal CoNLL-U but not part of the basic
tree: the syntactic words are read, multiword-token lines are kept (`multiword_tokens`) so a
predictor can write them back, and empty nodes (enhanced graphs only) are dropped. Ranges that
overlap, span one word or do not start at the next word, and repeated or skipped empty-node
numbers, are malformed (a predictor would write them back out). A word with a HEAD needs a DEPREL
other than `_`. Only an empty line (or one of spaces and tabs) ends a sentence: a line of other
whitespace (no-break space, form feed) is malformed at its own line.
"""

import codecs
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, NoReturn, Optional, Union

import conllu
from conllu.exceptions import ParseException
from conllu.parser import parse_id_value, parse_int_value

from green_nlp.line_stream import STRAY_BOM, split_lines
from green_nlp.settings import missing_file_hint

logger = logging.getLogger(__name__)

NUM_COLUMNS = 10
_EMPTY_NODES_NOTED: set[str] = set()  # files whose empty nodes were reported (once each)
ID_COLUMN, HEAD_COLUMN, DEPREL_COLUMN = 1, 7, 8  # 1-based, as the CoNLL-U format page numbers them
COLUMN_NAMES = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
MAY_HOLD_SPACES = {"FORM", "LEMMA", "MISC"}  # the format allows spaces in these columns only


class ConlluFormatError(ValueError):
    """Malformed CoNLL-U input; the message starts with `file:line:`."""


@dataclass
class DependencySentence:
    words: list[str]
    upos: Optional[list[str]]
    heads: Optional[list[int]]
    deprels: Optional[list[str]]
    # Columns kept only so predictions can be written back as CoNLL-U without losing anything.
    lemmas: list[str] = field(default_factory=list)
    xpos: list[str] = field(default_factory=list)
    feats: list[str] = field(default_factory=list)
    misc: list[str] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    first_line: int = 0
    # (ID of the first word it spans, its 10 columns): written back before that word's line
    multiword_tokens: list[tuple[int, list[str]]] = field(default_factory=list)


def _fail(path: str, line_number: int, message: str) -> NoReturn:
    raise ConlluFormatError(f"{path}:{line_number}: {message}")


class _Line(NamedTuple):
    number: int
    text: str
    error: Optional[str]  # why the line could not be decoded; the block holding it is malformed


def _decoded_lines(path: Path) -> Iterator[_Line]:
    """Every line, decoded one at a time, so an undecodable line is reported at its own number
    and (with `skip_malformed`) the sentences after it are still read."""
    with open(path, "rb") as handle:
        # split_lines: a lone CR ends lines in old Mac files (their first line end), as in the runtime's readers
        for line_number, raw in enumerate(split_lines(handle), start=1):
            if line_number == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8) :]  # a BOM some editors write: not part of the first ID
            elif raw.startswith(codecs.BOM_UTF8):
                yield _Line(line_number, "?", STRAY_BOM)
                continue
            try:
                yield _Line(line_number, raw.decode("utf-8"), None)
            except UnicodeDecodeError as error:
                yield _Line(
                    line_number,
                    "?",
                    f"not valid UTF-8 ({error.reason} at byte {error.start}); re-encode the file as UTF-8",
                )


def _blocks(path: Path) -> Iterator[list[_Line]]:
    """Yield each sentence as its lines; blank lines separate sentences.

    A blank line is empty or holds only spaces and tabs. A line of other whitespace (a no-break
    space, a form feed) is not one: it split the sentence and the error blamed the next line, so it
    is kept in the block as malformed at its own number."""
    block: list[_Line] = []
    for line in _decoded_lines(path):
        if not line.error and line.text.strip(" \t") and not line.text.strip():
            line = line._replace(error=whitespace_only(line.text))
        if line.error or line.text.strip():
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block


def whitespace_only(text: str) -> str:
    """Why a line of whitespace that is not a blank line (no-break space, form feed) is malformed."""
    names = sorted({f"U+{ord(char):04X}" for char in text if char not in " \t"})
    return (
        f"holds only whitespace ({', '.join(names)}), not an empty line; only an empty line ends a "
        "sentence: delete the line, or empty it if a sentence ends here"
    )


def _check_structure(path: str, heads: list[int], lines: list[int], require_single_root: bool) -> None:
    roots = [i for i, head in enumerate(heads) if head == 0]
    if not roots:
        _fail(path, lines[0], "sentence has no root (no word with HEAD 0)")
    if require_single_root and len(roots) > 1:
        _fail(
            path,
            lines[roots[1]],
            f"sentence has {len(roots)} roots (words {[r + 1 for r in roots]}); UD allows exactly one word with HEAD 0",
        )
    # Walk up from every word; a walk longer than the sentence means a cycle.
    for start in range(len(heads)):
        node, steps = start + 1, 0
        while node != 0:
            node = heads[node - 1]
            steps += 1
            if steps > len(heads):
                _fail_cycle(path, heads, lines, node)


def _fail_cycle(path: str, heads: list[int], lines: list[int], node: int) -> NoReturn:
    """Name the words of the cycle that `node` (1-based, reached by a too-long walk) lies on, at
    the line of its first word: a word that only leads into a cycle has a valid HEAD itself."""
    members = [node]
    while heads[members[-1] - 1] != node:
        members.append(heads[members[-1] - 1])
    first = min(members)
    if len(members) == 1:
        why = f"word {first} is its own HEAD (a cycle of one); every word must reach the root"
    else:
        at = members.index(first)
        chain = " -> ".join(str(word) for word in members[at:] + members[:at] + [first])
        why = f"words {sorted(members)} form a cycle of HEAD links ({chain}); every word must reach the root"
    _fail(path, lines[first - 1], why)


def _token_id(path: str, line_number: int, raw: str) -> Union[int, tuple]:
    """The ID as `conllu` parses it (an int, `(1, "-", 2)` or `(1, ".", 1)`), or an error naming
    file, line and column."""
    try:
        value = parse_id_value(raw)
    except ParseException:
        value = None
    if value is None:  # conllu reads "_" (and "") as no ID
        _fail(
            path,
            line_number,
            f"column {ID_COLUMN} (ID): {raw!r} is not a word ID (1), a multiword-token "
            "range (1-2) or an empty node (1.1); IDs are ASCII digits",
        )
    return value


def _head(path: str, line_number: int, raw: str, words: int) -> int:
    """HEAD as `conllu` parses it (ASCII digits only: Python's int() would also take other digits)."""
    try:
        head = parse_int_value(raw)
    except ParseException:
        head = None
    if head is None or head < 0:
        _fail(
            path,
            line_number,
            f"column {HEAD_COLUMN} (HEAD): HEAD {raw!r} is not a non-negative integer "
            "(HEAD must be ASCII digits; _ only on every word of a sentence without a tree)",
        )
    if head > words:
        _fail(path, line_number, f"HEAD {raw} is out of range: the sentence has {words} words")
    return head


def _check_columns(path: str, line_number: int, columns: list[str]) -> None:
    """No column may be empty (the format writes `_` for a missing value: an empty FORM used to
    become an empty word), and only FORM, LEMMA and MISC may hold spaces."""
    for number, (name, value) in enumerate(zip(COLUMN_NAMES, columns), start=1):
        if not value.strip():
            _fail(path, line_number, f"column {number} ({name}) is empty; CoNLL-U writes _ for a missing value")
        if name not in MAY_HOLD_SPACES and " " in value:
            _fail(path, line_number, f"column {number} ({name}): {value!r} holds a space")


def _word_lines(
    path: str, block: list[_Line]
) -> tuple[list[tuple[int, list[str]]], list[str], list[tuple[int, list[str]]]]:
    """(word lines, comment lines, multiword-token lines) of a block, IDs checked."""
    token_lines: list[tuple[int, list[str]]] = []
    comment_lines: list[str] = []
    multiword: list[tuple[int, list[str]]] = []
    range_end = 0  # the last word the multiword tokens so far span: the next one must start after it
    last_range = (0, "")  # (line, ID) of the last multiword token, to name it if it spans missing words
    empty_node = (-1, 0)  # (word, number) of the last empty node: the next one of that word is number + 1
    for line_number, line, error in block:
        if error:
            _fail(path, line_number, error)
        if line.startswith("#"):
            comment_lines.append(line)
            continue
        if "\x00" in line:
            _fail(
                path,
                line_number,
                f"column {line[: line.index(chr(0))].count(chr(9)) + 1}: holds a NUL byte (binary data?)",
            )
        columns = line.split("\t")
        if len(columns) != NUM_COLUMNS:
            _fail(path, line_number, f"expected {NUM_COLUMNS} tab-separated columns, found {len(columns)}")
        _check_columns(path, line_number, columns)
        token_id = _token_id(path, line_number, columns[0])
        expected = len(token_lines) + 1
        if isinstance(token_id, tuple):
            first, kind, second = token_id
            if kind == "-":
                _check_range(path, line_number, columns[0], first, second, expected, range_end)
                range_end, last_range = second, (line_number, columns[0])
            if kind == "." and first != expected - 1:
                _fail(
                    path,
                    line_number,
                    f"column {ID_COLUMN} (ID): empty node {columns[0]} must follow word {expected - 1}",
                )
            if kind == ".":
                number = empty_node[1] + 1 if empty_node[0] == first else 1
                if second != number:
                    _fail(
                        path,
                        line_number,
                        f"column {ID_COLUMN} (ID): empty node {columns[0]} out of sequence (expected "
                        f"{first}.{number}); the empty nodes after a word are numbered .1, .2, ... once each",
                    )
                empty_node = (first, second)
            if kind == "-":
                multiword.append((first, columns))
            elif path not in _EMPTY_NODES_NOTED:  # dropped as documented, but said once: DEPS goes with them
                _EMPTY_NODES_NOTED.add(path)
                logger.warning(
                    "%s:%d: empty node %s left out, as every empty node of this file: they belong to enhanced "
                    "graphs, which the parser does not predict (its CoNLL-U writes DEPS as _)",
                    path,
                    line_number,
                    columns[0],
                )
            continue  # not part of the basic tree
        if token_id != expected:
            _fail(path, line_number, f"ID {columns[0]} out of sequence (expected {expected})")
        token_lines.append((line_number, columns))
    if range_end > len(token_lines):
        _fail(
            path,
            last_range[0],
            f"multiword token {last_range[1]} spans words the sentence lacks (it has {len(token_lines)})",
        )
    return token_lines, comment_lines, multiword


def _check_range(path: str, line_number: int, raw: str, first: int, last: int, expected: int, range_end: int) -> None:
    """A multiword token spans two or more words, starts at the next word and overlaps no other one:
    the predictor writes these lines back, and an invalid one would make its output invalid CoNLL-U."""
    if first <= range_end:
        _fail(
            path,
            line_number,
            f"column {ID_COLUMN} (ID): multiword token {raw} overlaps the one before, which spans words up to "
            f"{range_end}; each word belongs to at most one multiword token",
        )
    if first != expected:
        _fail(
            path,
            line_number,
            f"column {ID_COLUMN} (ID): multiword token {raw} must start at the next word, {expected}",
        )
    if last <= first:
        _fail(
            path,
            line_number,
            f"column {ID_COLUMN} (ID): multiword token {raw} spans a single word; a range spans two or more "
            f"(write the word's line alone)",
        )


def _parse_block(path: str, block: list[_Line], require_single_root: bool) -> Optional[DependencySentence]:
    token_lines, comment_lines, multiword = _word_lines(path, block)
    if not token_lines:
        if comment_lines:
            return None  # comment-only block (e.g. a trailing `# newdoc`): nothing to parse
        _fail(path, block[0].number, "sentence has no word lines")

    raw_heads = [columns[6] for _, columns in token_lines]
    has_tree = any(head != "_" for head in raw_heads)
    heads: Optional[list[int]] = None
    if has_tree:
        heads = [
            _head(path, line_number, raw, len(token_lines)) for (line_number, _), raw in zip(token_lines, raw_heads)
        ]
        _check_structure(path, heads, [n for n, _ in token_lines], require_single_root)
        for (line_number, columns), head in zip(token_lines, heads):
            if columns[DEPREL_COLUMN - 1] == "_":  # it was trained as a relation named "_"
                _fail(
                    path,
                    line_number,
                    f"column {DEPREL_COLUMN} (DEPREL) is _ but HEAD is {head}: a word with a HEAD needs its "
                    "relation (HEAD and DEPREL are _ together, on every word of a sentence without a tree)",
                )

    # The checked lines are now safe to hand to `conllu` for field parsing.
    text = "\n".join(comment_lines + ["\t".join(columns) for _, columns in token_lines]) + "\n\n"
    token_list = conllu.parse(text)[0]
    upos = [token["upos"] for token in token_list]
    return DependencySentence(
        words=[token["form"] for token in token_list],
        upos=None if all(tag in (None, "_") for tag in upos) else upos,
        heads=heads,
        deprels=[token["deprel"] or "_" for token in token_list] if has_tree else None,
        lemmas=[token["lemma"] or "_" for token in token_list],
        xpos=[token["xpos"] or "_" for token in token_list],
        feats=[columns[5] for _, columns in token_lines],
        misc=[columns[9] for _, columns in token_lines],
        metadata=dict(token_list.metadata),
        first_line=token_lines[0][0],
        multiword_tokens=multiword,
    )


def read_conllu(
    file_path: Union[str, Path],
    require_single_root: bool = True,
    on_error: Optional[Callable[[ConlluFormatError], None]] = None,
) -> Iterator[DependencySentence]:
    """Yield the sentences of a CoNLL-U file, lazily; raise `ConlluFormatError` on the first bad line,
    or, with `on_error`, hand it each malformed sentence's error and go on with the next sentence."""
    path = Path(file_path)
    if not path.exists():
        raise FileNotFoundError(f"CoNLL-U file not found: {path}{missing_file_hint(path)}")
    found_any = malformed = False
    for block in _blocks(path):
        try:
            sentence = _parse_block(str(path), block, require_single_root)
        except ConlluFormatError as error:
            if on_error is None:
                raise
            malformed = True
            on_error(error)
            continue
        if sentence is not None:
            found_any = True
            yield sentence
    if not found_any and not malformed:
        raise ConlluFormatError(f"{path}:1: file contains no sentences (it is empty or only blank/comment lines)")
