"""Learn `TokenizationRules` (green_nlp.runtime.treebank_tokenization) from a treebank's training
file, and score a tokenizer's words against a treebank file.

Each gold sentence's `# text` is tokenized by the runtime's spaCy tokenizer and lined up with the
gold words by character offsets. Where a spaCy token always (or mostly) holds several gold words,
it becomes a split rule; where several adjacent tokens are mostly one gold word, their text or
their shape becomes a merge rule. A rule must be seen `min_count` times and be right `min_share`
of the times its pattern occurs, so a pattern the treebank treats both ways is left alone.
"""

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from green_nlp.runtime.conllu_output import rebuilt_text
from green_nlp.runtime.treebank_tokenization import (
    MAX_MERGE,
    TokenizationRules,
    headed_shape_key,
    is_ascii_word_piece,
    is_run_piece,
    shape_key,
    token_shape,
)

# shapes of tokens with letters or digits: a headed rule needs one after its first token, so that an
# abbreviation (`Sat.`, lower-cased `sat|.`) does not become a rule for every word before a full stop
WORDLIKE = frozenset({"a", "d", "m"})

Span = tuple[int, int]


@dataclass
class GoldSentence:
    text: str
    words: list[Span]  # each gold word's (start, end) in `text`
    multiword: set[Span] = field(default_factory=set)  # each multiword token's (start, end)


def word_spans(text: str, forms: Iterable[str]) -> Optional[list[Span]]:
    """Offsets of each form in `text`, in order (None where a form is not found there: a word of
    a multiword token that is not spelled inside the token, e.g. a treebank's `will` for `'ll`)."""
    spans = []
    position = 0
    for form in forms:
        start = text.find(form, position)
        if start < 0 or text[position:start].strip():
            return None
        spans.append((start, start + len(form)))
        position = start + len(form)
    return spans


# how `read_gold` may rebuild the text of a sentence without `# text` (None: it is left out)
TEXT_FROM_WORDS = ("spaced", "unspaced")


def sentence_text(sentence: Any, text_from_words: Optional[str] = None) -> Optional[str]:
    """A sentence's `# text`; where it has none, with `text_from_words`, its text rebuilt from its
    tokens: "spaced" as UD defines it (a space after each token unless MISC says `SpaceAfter=No`),
    "unspaced" with nothing between them, for a language written without spaces whose treebank has
    neither comment nor marks (UD Chinese-GSD v1.3). Why: such a treebank's words are what a
    Chinese tokenizer needs most (spaCy's default `zh` tokenizer cuts every character apart)."""
    text = sentence.metadata.get("text")
    if text is not None or text_from_words is None:
        return text
    if text_from_words not in TEXT_FROM_WORDS:
        raise ValueError(f"text_from_words must be one of {', '.join(TEXT_FROM_WORDS)}, not {text_from_words!r}")
    tokens = [columns for _, columns in sentence.multiword_tokens]
    if text_from_words == "spaced":
        return rebuilt_text(sentence.words, sentence.misc, tokens)
    joined = "SpaceAfter=No"
    return rebuilt_text(sentence.words, [joined] * len(sentence.words), [[*c[:9], joined] for c in tokens])


def read_gold(
    path: Path, counts: Optional[dict[str, int]] = None, text_from_words: Optional[str] = None
) -> Iterator[GoldSentence]:
    """Sentences of a CoNLL-U file that have a `# text` comment (or a text rebuilt from their words,
    see `sentence_text`) and whose words spell it (a multiword token whose parts differ from its
    surface, Wolof `moo` = `mu` + `a`, cannot be lined up with the text, and its sentence is left
    out). A malformed file is refused naming its line (`read_conllu`'s checks); trees need not be
    single-rooted here. `counts` gets "read" and "kept" sentences."""
    from green_nlp.dataset_readers.conllu_sentences import read_conllu

    tally = counts if counts is not None else {}
    tally.update(read=0, kept=0)
    for sentence in read_conllu(path, require_single_root=False):
        tally["read"] += 1
        text = sentence_text(sentence, text_from_words)
        spans = word_spans(text, sentence.words) if text else None
        if text is None or spans is None:
            continue
        tally["kept"] += 1
        multiword = set()
        for _, columns in sentence.multiword_tokens:
            first, _, last = columns[0].partition("-")
            if first.isdigit() and last.isdigit() and 1 <= int(first) <= int(last) <= len(spans):
                multiword.add((spans[int(first) - 1][0], spans[int(last) - 1][1]))
        yield GoldSentence(text, spans, multiword)


def spacy_chunks(nlp: Any, text: str) -> "Chunks":
    """spaCy's tokens of `text` with their spans, grouped into whitespace-free chunks."""
    chunks: list[list[tuple[str, Span]]] = []
    chunk: list[tuple[str, Span]] = []
    for token in nlp.make_doc(text):
        if not token.is_space:
            chunk.append((token.text, (token.idx, token.idx + len(token.text))))
        if token.whitespace_ or token.is_space:
            if chunk:
                chunks.append(chunk)
            chunk = []
    if chunk:
        chunks.append(chunk)
    return chunks


@dataclass
class PatternCounts:
    seen: Counter = field(default_factory=Counter)
    right: Counter = field(default_factory=Counter)

    def chosen(self, min_count: int, min_share: float) -> list[str]:
        return [key for key, right in self.right.items() if right >= min_count and right >= min_share * self.seen[key]]


def _chunk_words(chunk: list[tuple[str, Span]], rules: TokenizationRules) -> list[tuple[str, Span]]:
    """A chunk's words as `rules` make them (`TokenizationRules.chunk`), with spans: the words spell
    the whitespace-free chunk, so each starts where the one before ended."""
    position = chunk[0][1][0]
    words = []
    for text in rules.chunk([token for token, _ in chunk]):
        words.append((text, (position, position + len(text))))
        position += len(text)
    return words


Chunks = list[list[tuple[str, Span]]]


def _learn_splits(sentences: list[GoldSentence], chunked: list[Chunks], min_count: int, min_share: float) -> dict:
    """A spaCy token that is several gold words, spelled by them, mostly, in any casing.

    Why any casing: a split the treebank makes only for one casing is usually its annotation of a
    typo (EWT's sentence-initial `Its` for "It's" is `It` + `s`), while the same letters in another
    casing are the common word (`its`); counted together, the word is left whole."""
    seen: Counter = Counter()
    split_as: dict[str, Counter] = defaultdict(Counter)
    for sentence, chunks in zip(sentences, chunked, strict=True):
        for text, (start, end) in (token for chunk in chunks for token in chunk):
            seen[text] += 1
            inner = [(a, b) for a, b in sentence.words if start <= a and b <= end]
            if len(inner) > 1 and inner[0][0] == start and inner[-1][1] == end:
                pieces = tuple(sentence.text[a:b] for a, b in inner)
                if "".join(pieces) == text:
                    split_as[text][pieces] += 1
    seen_folded: Counter = Counter()
    split_folded: Counter = Counter()
    for text, count in seen.items():
        seen_folded[text.lower()] += count
        split_folded[text.lower()] += sum(split_as[text].values()) if text in split_as else 0
    split = {}
    for text, analyses in split_as.items():
        pieces, right = analyses.most_common(1)[0]
        if (
            right >= min_count
            and right >= min_share * seen[text]
            and split_folded[text.lower()] >= min_share * seen_folded[text.lower()]
        ):
            split[text] = list(pieces)
    return split


def _run_counts(
    golds: list[set[Span]],
    chunked: list[Chunks],
    rules: TokenizationRules,
    joins: Callable[[str, str], bool],
    key: Callable[[str], str],
) -> PatternCounts:
    """Maximal runs of 2+ pieces of a chunk (as `rules` make them) in which each piece `joins` the
    run's first, under `key` of that first piece, and how many of them are one gold word."""
    counts = PatternCounts()
    for gold, chunks in zip(golds, chunked, strict=True):
        for chunk in chunks:
            pieces = _chunk_words(chunk, rules)
            start = 0
            while start < len(pieces):
                end = start + 1
                while end < len(pieces) and joins(pieces[start][0], pieces[end][0]):
                    end += 1
                if end - start > 1:
                    counts.seen[key(pieces[start][0])] += 1
                    counts.right[key(pieces[start][0])] += (pieces[start][1][0], pieces[end - 1][1][1]) in gold
                start = end
    return counts


def _same_punctuation(first: str, piece: str) -> bool:
    """A run of one punctuation character (`!` `!!` `!`), per character."""
    return is_run_piece(first) and is_run_piece(piece) and piece[0] == first[0]


def _ascii_words(first: str, piece: str) -> bool:
    """A run of pieces of ASCII letters and digits (`T e n s o r` from spaCy's Chinese tokenizer, `can
    not` from its English one), all under one key."""
    return is_ascii_word_piece(first) and is_ascii_word_piece(piece)


def _merge_counts(
    golds: list[set[Span]], chunked: list[Chunks], rules: TokenizationRules
) -> tuple[PatternCounts, PatternCounts, PatternCounts]:
    """Every 2..MAX_MERGE adjacent pieces of a chunk, by text, shape and headed shape: seen, and one
    gold word."""
    strings, shapes, headed = PatternCounts(), PatternCounts(), PatternCounts()
    for gold, chunks in zip(golds, chunked, strict=True):
        for chunk in chunks:
            pieces = _chunk_words(chunk, rules)
            for start in range(len(pieces)):
                for end in range(start + 2, min(len(pieces), start + MAX_MERGE) + 1):
                    texts = [text for text, _ in pieces[start:end]]
                    is_word = (pieces[start][1][0], pieces[end - 1][1][1]) in gold
                    keys = [(strings, "".join(texts)), (shapes, shape_key(texts))]
                    if any(token_shape(text) in WORDLIKE for text in texts[1:]):  # `non-human`, not `Sat.`
                        keys.append((headed, headed_shape_key(texts)))
                    for counts, key in keys:
                        counts.seen[key] += 1
                        counts.right[key] += is_word
    return strings, shapes, headed


def _multiword_counts(
    golds: list[set[Span]], chunked: list[Chunks], rules: TokenizationRules
) -> tuple[PatternCounts, PatternCounts]:
    """Adjacent words of one whitespace-free chunk, as `rules` make them: by the last of two words and
    by the lower-cased text of two or three, how often seen and how often a gold multiword token."""
    suffixes, strings = PatternCounts(), PatternCounts()
    for multiword, chunks in zip(golds, chunked, strict=True):
        for chunk in chunks:
            words = _chunk_words(chunk, rules)
            for first in range(len(words) - 1):
                for last in range(first + 1, min(first + 3, len(words))):
                    is_token = (words[first][1][0], words[last][1][1]) in multiword
                    keys = [(strings, "".join(text for text, _ in words[first : last + 1]).lower())]
                    if last == first + 1:
                        keys.append((suffixes, words[last][0].lower()))
                    for counts, key in keys:
                        counts.seen[key] += 1
                        counts.right[key] += is_token
    return suffixes, strings


def learn_rules(
    sentences: list[GoldSentence],
    nlp: Any,
    min_count: int = 2,
    min_share: float = 0.5,
    min_shape_count: int = 3,
    min_shape_share: float = 0.6,
) -> TokenizationRules:
    """Splits first, then punctuation runs and ASCII words on the split tokens, then merges on them
    all (the order the rules are applied in)."""
    chunked = [spacy_chunks(nlp, sentence.text) for sentence in sentences]
    golds = [set(sentence.words) for sentence in sentences]
    split = _learn_splits(sentences, chunked, min_count, min_share)
    punctuation = _run_counts(golds, chunked, TokenizationRules(split=split), _same_punctuation, lambda piece: piece[0])
    runs = punctuation.chosen(min_count, min_share)
    before = TokenizationRules(split=split, merge_runs=runs)
    ascii_runs = _run_counts(golds, chunked, before, _ascii_words, lambda piece: "ascii")
    ascii_words = bool(ascii_runs.chosen(min_shape_count, min_shape_share))
    strings, shapes, headed = _merge_counts(
        golds, chunked, TokenizationRules(split=split, merge_runs=runs, merge_ascii_words=ascii_words)
    )
    words = TokenizationRules(
        split=split,
        merge_runs=runs,
        merge_ascii_words=ascii_words,
        merge_strings=strings.chosen(min_count, min_share),
        merge_shapes=shapes.chosen(min_shape_count, min_shape_share),
        merge_headed=headed.chosen(min_shape_count, min_shape_share),
    )
    suffixes, multiword = _multiword_counts([sentence.multiword for sentence in sentences], chunked, words)
    return TokenizationRules(
        split=words.split,
        merge_runs=words.merge_runs,
        merge_strings=words.merge_strings,
        merge_shapes=words.merge_shapes,
        merge_headed=words.merge_headed,
        multiword_suffixes=suffixes.chosen(min_shape_count, min_shape_share),
        multiword_strings=multiword.chosen(min_count, min_share),
        merge_ascii_words=words.merge_ascii_words,
    )


def word_scores(sentences: Iterable[GoldSentence], tokenize: Callable[[str], list[str]]) -> dict[str, float]:
    """Precision, recall and F1 (percent) of the words `tokenize` gives each sentence's text, a word
    right when its character span is a gold word's (the CoNLL 2018 scorer's words, without MWTs)."""
    right = predicted = gold_total = 0
    for sentence in sentences:
        spans = word_spans(sentence.text, tokenize(sentence.text))
        if spans is None:
            raise ValueError(f"the tokenizer's words do not spell {sentence.text!r}")
        right += len(set(spans) & set(sentence.words))
        predicted += len(spans)
        gold_total += len(sentence.words)
    precision = 100.0 * right / max(predicted, 1)
    recall = 100.0 * right / max(gold_total, 1)
    f1 = 2 * precision * recall / max(precision + recall, 1e-9)
    return {"precision": precision, "recall": recall, "f1": f1, "gold_words": gold_total}
