"""How many of the words a run read the model does not know, and a note when most are unknown.

A parser trained on English parses Wolof or Chinese without a word of complaint, and the trees it
writes are noise. The share of unknown words over a whole run tells the two apart where one line
cannot: on UD English-EWT test about 1 sentence in 20 is mostly names or addresses the vocabulary
lacks, while over a file English text from other domains stays far below the threshold here and
text in another language far above it (`python -m benchmarks.parser.unknown_words`, which measures
the shipped parser on the treebanks and English corpora of the data folder).
"""

from collections.abc import Mapping
from typing import Any, Optional

from green_nlp.runtime.parser_inputs import Vocab

# the run's share of unknown words above which the note is written, and the fewest words it needs
UNKNOWN_SHARE_NOTE = 0.4
MIN_WORDS_FOR_NOTE = 50
WORDS, UNKNOWN = "words", "unknown words"


def has_letter(word: str) -> bool:
    """Only words with a letter are counted: numbers and punctuation say nothing about the language."""
    return any(character.isalpha() for character in word)


def count_unknown(words: list[str], vocab: Vocab) -> tuple[int, int]:
    """(words with a letter, those of them not in `vocab`). A plain loop with `str.isalpha` first
    (most words are letters only): it runs on every word a CLI run parses."""
    index, lowercase = vocab.index, vocab.lowercase
    counted = unknown = 0
    for word in words:
        if not (word.isalpha() or has_letter(word)):
            continue
        counted += 1
        if (word.lower() if lowercase else word) not in index:
            unknown += 1
    return counted, unknown


class UnknownWordTally:
    """Per result (a `ParsedDoc` or a tagged sentence with `words`), the counts a run adds up."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab

    def __call__(self, result: Any) -> Mapping[str, int]:
        sentences = getattr(result, "sentences", None)
        word_lists = [s.words for s in sentences] if sentences is not None else [getattr(result, "words", [])]
        words = unknown = 0
        for word_list in word_lists:
            counted, missing = count_unknown(word_list, self.vocab)
            words, unknown = words + counted, unknown + missing
        return {WORDS: words, UNKNOWN: unknown}


def unknown_words_note(tallies: Mapping[str, int], language: str) -> Optional[str]:
    """The note for a run whose words were mostly unknown to the model, or None."""
    words, unknown = tallies.get(WORDS, 0), tallies.get(UNKNOWN, 0)
    if words < MIN_WORDS_FOR_NOTE or unknown <= UNKNOWN_SHARE_NOTE * words:
        return None
    return (
        f"{unknown / words:.0%} of the words read ({unknown:,} of {words:,}) are unknown to this model, whose "
        f"folder tokenizes {language!r} text: if the text is in another language, do not trust the output; use "
        "a model trained on that language (one you trained yourself: export it with green-export --language)"
    )
