"""Raw text -> sentences of words, exactly as the `green_dependency_parser` predictor splits it.

`spacy.blank(language)` plus the rule-based sentencizer, no downloaded model; whitespace tokens
dropped. spaCy is imported on first use only: in an environment with torch, spaCy's thinc imports
torch, and pre-tokenized input needs no tokenizer at all.

`split_sentences=False` keeps a text as one sentence (the tokenizer alone runs): what `green-nlp
parse|tag` do by default, so that a corpus of one sentence per line keeps its sentences.

`rules` (a model folder's learned `TokenizationRules`) then bring spaCy's tokens to the
treebank's word conventions (`e-mail`, `!!` one word; `alot` two). Before them, the pieces of an
emoji sequence that spaCy cuts apart (a lone zero-width joiner, a skin tone) are joined again
(`grapheme_pieces`). Long runs of punctuation are cut out before spaCy tokenizes, which it does in
time quadratic in their length (`punctuation_runs`). Hashtags, @-mentions and URLs whose ends spaCy
cuts off are whole again (`web_tokens`). Characters that show nothing (a zero-width space, a control
character) are never a word, nor the end of one (`invisible_characters`).

HTML line breaks (`<br>`, `<br />`: IMDB's reviews and much scraped text mark paragraphs so) are
never words: with `split_sentences` they end a sentence, as the teacher-labelling step splits the
silver text; without it they count as spaces, and the sentence's text has a space in their place.
"""

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

from green_nlp.runtime.conllu_output import SentenceText, multiword_columns
from green_nlp.runtime.errors import InputError, ModelFolderError
from green_nlp.runtime.folder_files import META_FILE
from green_nlp.runtime.glued_marks import cut_glued_marks, may_hold_glued_marks
from green_nlp.runtime.grapheme_pieces import join_grapheme_pieces, may_hold_pieces
from green_nlp.runtime.invisible_characters import may_hold_invisible, strip_invisible
from green_nlp.runtime.punctuation_runs import tokenize
from green_nlp.runtime.treebank_tokenization import TokenizationRules
from green_nlp.runtime.web_tokens import join_web_tokens, may_hold_web_tokens

# spaCy's sentencizer keeps every punctuation mark after a sentence's end with that sentence; one
# of these with a space before it and none after opens the next sentence instead (`said. "No."`)
OPENING_MARKS = frozenset("\"'“‘«([{")
LINE_BREAK = re.compile(r"<br\s*/?\s*>", re.IGNORECASE)  # <br>, <br/>, <br />, <br/ > as browsers read them


class TextSegmenter:
    def __init__(
        self,
        language: str = "en",
        split_sentences: bool = True,
        rules: Optional[TokenizationRules] = None,
        folder: Optional[Path] = None,
    ) -> None:
        self.language = language
        self.split_sentences = split_sentences
        self.rules = rules
        # the model folder whose metadata names `language`: a language spaCy cannot tokenize is then
        # the folder's fault (ModelFolderError, which ends a run), not each text's
        self.folder = folder
        self._nlp: Any = None
        self._inner_mark_pattern: Optional[re.Pattern[str]] = None

    def _pipeline(self) -> Any:
        if self._nlp is None:
            import spacy

            try:
                nlp = spacy.blank(self.language)
            except Exception as error:  # spaCy raises its own ImportError/KeyError variants
                problem = f"spaCy has no tokenizer rules for language {self.language!r}: {str(error).rstrip('. ')}"
                if self.folder is None:
                    raise ValueError(problem) from error
                raise ModelFolderError(
                    f"{self.folder}: {META_FILE} key tokenizer.language: {problem}; set it to a language code "
                    "spacy.blank() takes (install the packages spaCy names for it, if any)"
                ) from None
            nlp.add_pipe("sentencizer")
            _keep_read_attributes(nlp.vocab)
            self._nlp = nlp
        return self._nlp

    def segment(self, text: str) -> list[tuple[str, list[str]]]:
        """(sentence text, words) for each sentence of `text` that has a word; with
        `split_sentences` off, the whole text is one sentence."""
        self._check_length(text)
        if not self.split_sentences:
            if "<" in text:
                text = LINE_BREAK.sub(" ", text)
            words = self._words(tokenize(self._pipeline(), text))
            return [(text.strip(), words)] if words else []
        return self._split(text)

    def _check_length(self, text: str) -> None:
        """An InputError for a text longer than spaCy takes at once (`nlp.max_length`), which spaCy
        would refuse with its own error in the middle of a batch (E088)."""
        limit = self._pipeline().max_length
        if len(text) > limit:
            raise InputError(
                "text",
                f"has {len(text):,} characters, over the {limit:,} spaCy's tokenizer takes in one text; "
                "cut it into shorter lines",
            )

    def holds_several_sentences(self, text: str) -> bool:
        """Whether splitting `text` would give more than one sentence with words, where a sentence-end
        mark (closing quotes or brackets after it) is followed by whitespace and more text: what
        `green-nlp parse` counts when it reads each line as one sentence. The sentencizer runs only on
        a text holding such a mark, about one EWT sentence in 35, so a text whose only cuts come without
        a space after the mark (`Newsfeeds.Com`) is not counted."""
        return bool(self._inner_mark().search(text.strip())) and len(self._split(text)) > 1

    def _inner_mark(self) -> "re.Pattern[str]":
        if self._inner_mark_pattern is None:
            marks = re.escape("".join(sorted(self._pipeline().get_pipe("sentencizer").punct_chars)))
            self._inner_mark_pattern = re.compile(f"[{marks}][^\\w\\s]*\\s+\\S|<br", re.IGNORECASE)
        return self._inner_mark_pattern

    def _split(self, text: str) -> list[tuple[str, list[str]]]:
        sentences: list[tuple[str, list[str]]] = []
        for paragraph in LINE_BREAK.split(text) if "<" in text else [text]:
            if not paragraph.strip():
                continue
            nlp = self._pipeline()
            doc = tokenize(nlp, paragraph)
            for _, component in nlp.pipeline:  # the sentencizer
                doc = component(doc)
            for start, end in _sentence_bounds(doc):
                span = doc[start:end]
                words = self._words(span)
                if words:
                    followed = _followed_by_space(doc, end)
                    sentences.append((SentenceText(span.text.strip(), followed), words))
        return sentences

    def _words(self, tokens: Any) -> list[str]:
        """The words of a spaCy Doc or Span: its non-space tokens, brought to the rules' conventions."""
        pairs = [(token.text, bool(token.whitespace_)) for token in tokens]
        joined = "".join(text for text, _ in pairs)  # one string for the cheap tests: most text needs no pass
        if may_hold_pieces(joined):  # first: an emoji's zero-width joiner shows nothing, but is part of it
            pairs = join_grapheme_pieces(pairs)
        if may_hold_invisible(joined):
            pairs = strip_invisible(pairs)
        if may_hold_web_tokens(joined):
            pairs = join_web_tokens(pairs)
        if may_hold_glued_marks(joined):  # before the contractions: `what?Don't` ends in one
            pairs = cut_glued_marks(pairs)
        if any("'" in text or "’" in text for text, _ in pairs):  # a contraction spaCy left whole, maybe
            pairs = self._cut_capital_contractions(pairs)
        if self.rules is None:
            return [text for text, _ in pairs if text and not text.isspace()]
        return self.rules.words(pairs)

    def _cut_capital_contractions(self, pairs: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
        cut: list[tuple[str, bool]] = []
        for text, spaced in pairs:
            pieces = self._capital_contraction(text) if "'" in text or "’" in text else None
            if pieces is None:
                cut.append((text, spaced))
            else:  # only the last piece is followed by the token's whitespace
                cut += [(piece, False) for piece in pieces[:-1]] + [(pieces[-1], spaced)]
        return cut

    def _capital_contraction(self, text: str) -> Optional[list[str]]:
        """`I'M`, `YOU'RE`, `CAN'T` cut where spaCy cuts `i'm`, `you're`, `can't` (its contraction
        exceptions are written in lower and title case only, so capitals kept them one word), and
        `we'll` cut where it followed punctuation with no space (`ok...we'll`: spaCy looks for its
        exceptions only in a whole chunk between spaces, so the token it split off kept them
        one word); None for any other token."""
        if text[:1].isalpha():  # (`'ve` alone is `'` + `ve`: a piece spaCy cut off stays as it is)
            alone = [token.text for token in self._pipeline().tokenizer(text)]
            if len(alone) > 1 and "".join(alone) == text:
                return alone
        lower = text.lower()
        if lower == text or len(lower) != len(text):
            return None
        pieces = [token.text for token in self._pipeline().tokenizer(lower)]
        if len(pieces) < 2 or "".join(pieces) != lower:
            return None
        cuts, start = [], 0
        for piece in pieces:
            cuts.append(text[start : start + len(piece)])
            start += len(piece)
        return cuts

    def multiword_tokens(self, text: Optional[str], words: Sequence[str]) -> Optional[list[list[str]]]:
        """The CoNLL-U columns of the multiword tokens (`2-3 don't`) the rules find over a sentence
        split from `text`; None without rules, text or any multiword token."""
        groups = self.rules.multiword_tokens(text, words) if self.rules is not None and text else []
        return multiword_columns(words, groups) if groups else None


def _keep_read_attributes(vocab: Any) -> None:
    """Drop the lexical attributes nothing here reads from the words spaCy meets for the first time.

    spaCy computes 23 of them (English) for every new word type, its shape, norm, stop-word and number
    flags among them: half the tokenizer's CPU time on new text (UD English-EWT test in a fresh
    process: 0.155 against 0.076 s). The tokenizer itself reads none of them; the sentencizer reads
    `is_punct` and `_followed_by_space` reads `is_space`, so those two stay."""
    from spacy.attrs import IS_PUNCT, IS_SPACE

    getters = vocab.lex_attr_getters
    vocab.lex_attr_getters = {attr: getters[attr] for attr in (IS_PUNCT, IS_SPACE) if attr in getters}


def _sentence_bounds(doc: Any) -> list[tuple[int, int]]:
    """(start, end) token offsets of the sentencizer's sentences, with opening marks left at a
    sentence's end moved to the sentence they open."""
    bounds = [(span.start, span.end) for span in doc.sents]
    for k in range(len(bounds) - 1):
        start, end = bounds[k]
        cut = end
        while cut - 1 > start and _opens_next(doc, cut - 1):
            cut -= 1
        bounds[k], bounds[k + 1] = (start, cut), (cut, bounds[k + 1][1])
    return bounds


def _opens_next(doc: Any, i: int) -> bool:
    token = doc[i]
    return token.text in OPENING_MARKS and bool(doc[i - 1].whitespace_) and not token.whitespace_


def _followed_by_space(doc: Any, end: int) -> bool:
    """Whether whitespace follows the last word before token `end`: its own trailing space, a
    whitespace token (spaCy makes one of a run, or of a character such as U+0085), or the end of
    the paragraph (a line end or a <br>)."""
    last = end - 1
    while last >= 0 and doc[last].is_space:
        last -= 1
    return last < 0 or last + 1 < end or end == len(doc) or bool(doc[last].whitespace_) or doc[end].is_space
