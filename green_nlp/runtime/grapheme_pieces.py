"""Keep what a reader sees as one character together: spaCy's tokenizer cuts emoji sequences apart.

spaCy's English rules split `🏃‍♂️.` into `🏃`, a lone zero-width joiner, `♂` and `️.` (a variation
selector glued to the period), `👍🏽` into the hand and its skin tone, and a flag `🇺🇸` into its two
regional indicators. A word made only of an invisible joiner or selector is no word: the parser
guessed a relation for it, and CoNLL-U tools show an empty form. Unicode's extended grapheme clusters
(UAX #29) say where a character ends; this joins the pieces of the few cluster kinds that spaCy
cuts, between tokens with no whitespace between them, and leaves every other cut of spaCy's alone:

- a mark that only extends the character before it: combining marks (category M: accents written
  apart, the keycap `⃣`), variation selectors, emoji skin tones, tag characters (subdivision flags);
- the character after a zero-width joiner (`👨‍👩‍👧` is one);
- the second regional indicator of a pair (`🇺🇸`).

Hand-written (not the `regex` module's `\\X`): the runtime would take a compiled dependency for three
rules that run only on tokens holding one of these characters, which English text rarely has.
"""

import unicodedata

ZERO_WIDTH_JOINER = "\u200d"
REGIONAL_INDICATORS = "".join(chr(code) for code in range(0x1F1E6, 0x1F200))


def _extends(char: str) -> bool:
    """Whether `char` only extends the character before it (it never starts a cluster)."""
    code = ord(char)
    return (
        0xFE00 <= code <= 0xFE0F  # variation selectors (U+FE0F: emoji presentation)
        or 0x1F3FB <= code <= 0x1F3FF  # emoji skin tones
        or 0xE0020 <= code <= 0xE007F  # tag characters (subdivision flags)
        or 0xE0100 <= code <= 0xE01EF  # variation selectors supplement
        or char == ZERO_WIDTH_JOINER
        or unicodedata.category(char).startswith("M")
    )


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _open_flag(text: str) -> bool:
    """Whether `text` ends with an odd run of regional indicators: a flag waiting for its second."""
    run = len(text) - len(text.rstrip(REGIONAL_INDICATORS))
    return run % 2 == 1


def _joined_prefix(before: str, text: str) -> int:
    """How many leading characters of `text` belong to the cluster that `before` ends with."""
    end = 1 if before.endswith(ZERO_WIDTH_JOINER) or (_regional(text[0]) and _open_flag(before)) else 0
    while end < len(text) and (_extends(text[end]) or (end > 0 and text[end - 1] == ZERO_WIDTH_JOINER)):
        end += 1
    return end


def may_hold_pieces(text: str) -> bool:
    """A cheap test first, on the tokens' text: only text outside ASCII can hold a piece of a cluster."""
    return not text.isascii()


def join_grapheme_pieces(pairs: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """spaCy's (token text, followed by whitespace) pairs, with every cluster piece moved onto the
    token before it (the tokens still spell the same text; a token left empty is dropped)."""
    joined: list[tuple[str, bool]] = []
    for text, spaced in pairs:
        before = joined[-1][0] if joined and not joined[-1][1] else ""
        cut = _joined_prefix(before, text) if before and text and not before.isspace() else 0
        if cut == 0:
            joined.append((text, spaced))
        elif cut == len(text):
            joined[-1] = (before + text, spaced)
        else:
            joined[-1] = (before + text[:cut], False)
            joined.append((text[cut:], spaced))
    return joined
