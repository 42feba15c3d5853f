"""CoNLL-U for parsed sentences, written by the `conllu` package (no torch): the same text the
`green_dependency_parser` predictor writes for the same record."""

from collections.abc import Sequence
from typing import Any, Optional

import conllu

from green_nlp.line_stream import LINE_BREAKS
from green_nlp.runtime.invisible_characters import is_gap


def multiword_columns(words: Sequence[str], groups: Sequence[tuple[int, int]]) -> list[list[str]]:
    """The 10 CoNLL-U columns of each multiword token over words (first, last), 0-based: ID
    `first-last` (1-based), FORM the words written together, the rest `_`."""
    return [[f"{first + 1}-{last + 1}", "".join(words[first : last + 1])] + ["_"] * 8 for first, last in groups]


SPACE_AFTER_NO = "SpaceAfter=No"


class SentenceText(str):
    """The text of one sentence split from a longer text, knowing whether whitespace followed it
    there: where the next sentence starts at once (`lose.Well`), UD marks the sentence's last
    word `SpaceAfter=No` so the text can be rebuilt. A plain `str` (JSON, comments, comparison)
    everywhere else; a plain `str` text counts as followed by whitespace."""

    space_after: bool

    def __new__(cls, text: str, space_after: bool = True) -> "SentenceText":
        made = super().__new__(cls, text)
        made.space_after = space_after
        return made


# a line break inside a `# text` comment would cut it in two (spaCy reads them all as spaces); a tab
# or line break inside a cell would cut its row
_LINE_BREAKS = str.maketrans(dict.fromkeys(LINE_BREAKS, " "))
_CELL_BREAKS = str.maketrans(dict.fromkeys("\t" + LINE_BREAKS, " "))


def one_line(value: Any) -> Any:
    """A comment's value with every line-breaking character a space (other values as they are)."""
    return value.translate(_LINE_BREAKS) if isinstance(value, str) else value


def gaps_after(text: str, words: Sequence[str]) -> Optional[list[str]]:
    """The whitespace that follows each word where `words` spell `text` in order (whitespace and
    characters that show nothing, `invisible_characters`, between them skipped), the last word's
    `" "` (the sentence's end); None where they do not spell it (words given by the user, not split
    from this text)."""
    gaps, position, end = [], 0, len(text)
    for word in words:
        while position < end and is_gap(text[position]):
            position += 1
        if not word or not text.startswith(word, position):
            return None
        position += len(word)
        start = position
        while position < end and is_gap(text[position]):
            position += 1
        gaps.append(" " if position >= end else text[start:position])
    return gaps if position >= end else None


# UD's MISC escapes for SpacesAfter (universaldependencies.org/misc.html): the common whitespace by
# letter, any other as \uXXXX; a pipe or backslash never occurs (whitespace and invisible characters only)
_SPACE_ESCAPES = {" ": "\\s", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def spaces_after_value(gap: str) -> str:
    """`SpacesAfter=...` for whitespace other than one space, as UD writes it."""
    return "SpacesAfter=" + "".join(_SPACE_ESCAPES.get(char, f"\\u{ord(char):04X}") for char in gap)


def normalized_text(words: Sequence[str], gaps: Sequence[str]) -> str:
    """The sentence's text as UD's `# text` has it: the words with one space wherever whitespace
    followed (the original whitespace is in MISC, `SpacesAfter`), so it is rebuilt from the forms
    and `SpaceAfter=No` alone, as UD's validator rebuilds it."""
    return "".join(word + (" " if gap else "") for word, gap in zip(words, gaps)).rstrip(" ")


def space_after_misc(
    text: str,
    words: Sequence[str],
    multiword_tokens: Optional[list[list[str]]],
    gaps: Optional[list[str]],
) -> tuple[list[Optional[str]], Optional[list[list[str]]]]:
    """The MISC column (`SpaceAfter=No` where no space follows a word in `text`, `SpacesAfter=\\s\\s`
    where other whitespace than one space does, as UD writes them so that the text can be rebuilt)
    and the multiword-token lines with theirs: the mark of a word inside a multiword token belongs
    on the token's line. `gaps`: `gaps_after(text, words)`; all `_` where it is None (the words do
    not spell the text)."""
    misc: list[Optional[str]] = [None] * len(words)
    if gaps is None:
        return misc, multiword_tokens
    if gaps and not getattr(text, "space_after", True):  # the next sentence follows at once
        gaps = [*gaps[:-1], ""]
    misc = [SPACE_AFTER_NO if gap == "" else None if gap == " " else spaces_after_value(gap) for gap in gaps]
    if not multiword_tokens:
        return misc, multiword_tokens
    marks, lines = list(misc), []  # the words' marks, before those inside a token move to its line
    for columns in multiword_tokens:
        first, last = (int(i) - 1 for i in columns[0].split("-"))
        lines.append(columns[:9] + [marks[last] or "_"])
        misc[first : last + 1] = [None] * (last + 1 - first)
    return misc, lines


def with_multiword_tokens(block: str, multiword_tokens: Optional[list[list[str]]]) -> str:
    """A CoNLL-U block with each multiword-token line (its 10 columns, ID `first-last`) put back
    before the line of its first word, where the format has it."""
    if not multiword_tokens:
        return block
    before = {columns[0].split("-")[0]: "\t".join(columns) for columns in multiword_tokens}
    lines = []
    for line in block.split("\n"):
        token_id = line.split("\t", 1)[0] if "\t" in line and not line.startswith("#") else None
        if token_id in before:
            lines.append(before[token_id])
        lines.append(line)
    return "\n".join(lines)


def rebuilt_text(
    words: Sequence[str], misc: Sequence[Optional[Any]], multiword_tokens: Optional[Sequence[Sequence[Any]]]
) -> str:
    """A `# text` for a sentence that came without one, rebuilt as UD defines it: each token's form (a
    multiword token's surface form in place of its words) followed by a space unless its MISC says
    `SpaceAfter=No`. A CoNLL-U file without `# text` comments got its words joined by spaces, the
    parts of `dafa` and the comma after `baatukaay` apart: a text that contradicted the file."""
    spans: dict[int, tuple[int, str, Any]] = {}  # first word (0-based) -> (its last word, the token's form, its MISC)
    for columns in multiword_tokens or []:
        first, _, last = str(columns[0]).partition("-")
        if first.isdigit() and last.isdigit():
            spans[int(first) - 1] = (int(last) - 1, str(columns[1]), columns[9] if len(columns) > 9 else None)
    pieces: list[str] = []
    i = 0
    while i < len(words):
        last, form, token_misc = spans.get(i, (i, str(words[i]), misc[i] if i < len(misc) else None))
        pieces.append(form)
        if last + 1 < len(words) and "SpaceAfter=No" not in str(token_misc or "").split("|"):
            pieces.append(" ")
        i = max(last, i) + 1
    return "".join(pieces)


def sentence_to_conllu(sentence: dict[str, Any]) -> str:
    """One sentence record (`words`, `heads`, `deprels`, optional `upos`, `lemmas`, `xpos`,
    `feats`, `misc`, `comments`, `multiword_tokens`) -> a CoNLL-U block ending in a blank line.
    A record without `misc` whose `text` comment its words spell gets `SpaceAfter=No` and
    `SpacesAfter` marks, and that comment with one space for each run of whitespace between words."""
    words = sentence["words"]
    n = len(words)
    multiword_tokens = sentence.get("multiword_tokens")
    text = (sentence.get("comments") or {}).get("text")
    if "misc" not in sentence and isinstance(text, str):
        sentence = dict(sentence)
        gaps = gaps_after(text, words)
        sentence["misc"], multiword_tokens = space_after_misc(text, words, multiword_tokens, gaps)
        if gaps is not None and any(gap not in ("", " ") for gap in gaps[:-1]):
            sentence["comments"] = {**sentence["comments"], "text": normalized_text(words, gaps)}

    def column(name: str) -> list[Optional[Any]]:
        values = sentence.get(name)
        if not values:
            return [None] * n
        if isinstance(values, str) or len(values) != n:  # zipped with the words, it would cut them short
            raise ValueError(f"the sentence's {name!r} is {_describe(values)}, not one value for each of its {n} words")
        return list(values)

    upos, lemmas, xpos, feats, misc = (column(name) for name in ("upos", "lemmas", "xpos", "feats", "misc"))
    comments = {key: one_line(value) for key, value in (sentence.get("comments") or {}).items()}
    if "text" not in comments:  # (not `setdefault`: that rebuilt a text for every sentence that had one)
        comments["text"] = rebuilt_text(words, misc, multiword_tokens)
    heads, deprels = list(sentence["heads"]), list(sentence["deprels"])
    block = _plain_block(comments, words, lemmas, upos, xpos, feats, heads, deprels, misc)
    if block is None:  # a value that is not a plain string or number: conllu's own serializer writes it
        tokens = [
            {
                "id": i + 1,
                "form": words[i],
                "lemma": lemmas[i],
                "upos": upos[i],
                "xpos": xpos[i],
                "feats": feats[i],
                "head": heads[i],
                "deprel": deprels[i],
                "deps": None,
                "misc": misc[i],
            }
            for i in range(n)
        ]
        block = conllu.models.TokenList(
            [conllu.models.Token(token) for token in tokens], metadata=conllu.models.Metadata(comments)
        ).serialize()
    return with_multiword_tokens(block, multiword_tokens)


def _describe(values: Any) -> str:
    return f"the string {values[:20]!r}" if isinstance(values, str) else f"{len(values)} values"


_INT, _STR, _STR_OR_NONE = frozenset([int]), frozenset([str]), frozenset([str, type(None)])


def _plain_block(
    comments: dict[str, Any],
    words: Sequence[Any],
    lemmas: Sequence[Any],
    upos: Sequence[Any],
    xpos: Sequence[Any],
    feats: Sequence[Any],
    heads: Sequence[Any],
    deprels: Sequence[Any],
    misc: Sequence[Any],
) -> Optional[str]:
    """The text `conllu`'s serializer writes for these columns (ID and DEPS added), when every value
    is None, a string or an int; else None. Why our own: building a conllu Token per word and
    serializing it field by field was 8 % of `green-nlp parse`; for plain values the format is a tab
    join, `_` for None, and tests/runtime/conllu_output_test.py pins the two to the same bytes."""
    # each column's set of types (`map` runs in C), not a Python generator over its values
    if not set(map(type, heads)) <= _INT:
        return None
    texts: list[Sequence[str]] = []
    for values in (words, lemmas, upos, xpos, feats, deprels, misc):
        kinds = set(map(type, values))
        if kinds <= _STR:
            texts.append(values)
        elif kinds <= _STR_OR_NONE:
            texts.append(["_" if value is None else value for value in values])
        else:
            return None
    block = _rows(comments, texts, heads)
    lines = len(comments) + len(words) + 1  # the blank line ending the block included
    # `splitlines` cuts at every line break, "\r\n" once: with the count of "\n" it finds each one
    if block.count("\t") != 9 * len(words) or block.count("\n") != lines or len(block.splitlines()) != lines:
        # a value holding a tab or a line break (a model folder's label or lemma: words are checked
        # on the way in) would cut its row; written with spaces instead, as the comments are
        block = _rows(comments, [[value.translate(_CELL_BREAKS) for value in column] for column in texts], heads)
    return block


def _rows(comments: dict[str, Any], texts: Sequence[Sequence[str]], heads: Sequence[Any]) -> str:
    forms, lemma_texts, tags, xtags, feat_texts, relations, extras = texts
    lines = [f"# {key} = {value}" if value else f"# {key}" for key, value in comments.items()]
    lines += [
        f"{i}\t{form}\t{lemma}\t{tag}\t{xtag}\t{feat}\t{head}\t{deprel}\t_\t{extra}"
        for i, form, lemma, tag, xtag, feat, head, deprel, extra in zip(
            range(1, len(forms) + 1), forms, lemma_texts, tags, xtags, feat_texts, heads, relations, extras
        )
    ]
    return "\n".join(lines) + "\n\n"
