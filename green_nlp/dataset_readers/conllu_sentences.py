"""Streaming, validating CoNLL-U reading on top of the `conllu` package.

`conllu` parses fields well but reports neither file nor line, and a treebank with one bad line
should tell the user exactly where to look. So lines are checked here first (column count, ids,
heads, one root, no cycle, UTF-8) and every error names `file:line`; `conllu` then parses the
checked block.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Union

import conllu

NUM_COLUMNS = 10


class ConlluFormatError(ValueError):
    """Malformed CoNLL-U input; the message starts with `file:line:`."""


@dataclass
class DependencySentence:
    words: List[str]
    upos: Optional[List[str]]
    heads: Optional[List[int]]
    deprels: Optional[List[str]]
    # Columns kept only so predictions can be written back as CoNLL-U without losing anything.
    lemmas: List[str] = field(default_factory=list)
    xpos: List[str] = field(default_factory=list)
    feats: List[str] = field(default_factory=list)
    misc: List[str] = field(default_factory=list)
    metadata: Dict[str, str] = field(default_factory=dict)
    first_line: int = 0


def _fail(path: str, line_number: int, message: str) -> None:
    raise ConlluFormatError(f"{path}:{line_number}: {message}")


def _decoded_lines(path: Path) -> Iterator[str]:
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            try:
                yield raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as error:
                _fail(str(path), line_number, f"not valid UTF-8 ({error.reason} at byte {error.start}); "
                      "re-encode the file as UTF-8")


def _blocks(path: Path) -> Iterator[List[tuple]]:
    """Yield each sentence as [(line_number, text), ...]; blank lines separate sentences."""
    block: List[tuple] = []
    for line_number, line in enumerate(_decoded_lines(path), start=1):
        if line.strip():
            block.append((line_number, line))
        elif block:
            yield block
            block = []
    if block:
        yield block


def _check_structure(path: str, heads: List[int], lines: List[int], require_single_root: bool) -> None:
    roots = [i for i, head in enumerate(heads) if head == 0]
    if not roots:
        _fail(path, lines[0], "sentence has no root (no word with HEAD 0)")
    if require_single_root and len(roots) > 1:
        _fail(path, lines[roots[1]], f"sentence has {len(roots)} roots (words {[r + 1 for r in roots]}); "
              "UD allows exactly one word with HEAD 0")
    # Walk up from every word; a walk longer than the sentence means a cycle.
    for start in range(len(heads)):
        node, steps = start + 1, 0
        while node != 0:
            node = heads[node - 1]
            steps += 1
            if steps > len(heads):
                _fail(path, lines[start], f"word {start + 1} is on a cycle of HEAD links; "
                      "every word must reach the root")


def _parse_block(path: str, block: List[tuple], require_single_root: bool) -> Optional[DependencySentence]:
    token_lines, comment_lines = [], []
    for line_number, line in block:
        if line.startswith("#"):
            comment_lines.append(line)
            continue
        columns = line.split("\t")
        if len(columns) != NUM_COLUMNS:
            _fail(path, line_number, f"expected {NUM_COLUMNS} tab-separated columns, found {len(columns)}")
        token_id = columns[0]
        if "-" in token_id or "." in token_id:
            continue  # multiword-token range or empty node: not part of the basic tree
        if not token_id.isdigit():
            _fail(path, line_number, f"ID {token_id!r} is not an integer, a range (1-2) or a decimal (1.1)")
        if int(token_id) != len(token_lines) + 1:
            _fail(path, line_number, f"ID {token_id} out of sequence (expected {len(token_lines) + 1})")
        token_lines.append((line_number, columns))
    if not token_lines:
        if comment_lines:
            return None  # comment-only block (e.g. a trailing `# newdoc`): nothing to parse
        _fail(path, block[0][0], "sentence has no word lines")

    raw_heads = [columns[6] for _, columns in token_lines]
    has_tree = any(head != "_" for head in raw_heads)
    heads: Optional[List[int]] = None
    if has_tree:
        heads = []
        for (line_number, _), raw in zip(token_lines, raw_heads):
            if not raw.isdigit():
                _fail(path, line_number, f"HEAD {raw!r} is not a non-negative integer")
            if int(raw) > len(token_lines):
                _fail(path, line_number, f"HEAD {raw} is out of range: the sentence has {len(token_lines)} words")
            heads.append(int(raw))
        _check_structure(path, heads, [n for n, _ in token_lines], require_single_root)

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
    )


def read_conllu(file_path: Union[str, Path], require_single_root: bool = True) -> Iterator[DependencySentence]:
    """Yield the sentences of a CoNLL-U file, lazily; raise `ConlluFormatError` on the first bad line."""
    path = Path(file_path)
    if not path.exists():
        raise FileNotFoundError(f"CoNLL-U file not found: {path}")
    found_any = False
    for block in _blocks(path):
        sentence = _parse_block(str(path), block, require_single_root)
        if sentence is not None:
            found_any = True
            yield sentence
    if not found_any:
        raise ConlluFormatError(f"{path}:1: file contains no sentences (it is empty or only blank/comment lines)")
