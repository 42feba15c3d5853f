"""One warning for a very long sentence on its way to a parser, instead of a silent cost.

A biaffine parser scores every (head, dependent) pair, so its time and memory grow with the square of
a sentence's length: a 3,000-word "sentence" (a file without sentence breaks, a table read as text)
took about 100 s in `allennlp predict` / `evaluate` and nothing said why. Sentences that long are
almost always a segmentation accident (UD treebanks' sentences stay far below `LONG_SENTENCE`), so the
first one a reader or predictor meets is named once, with its place, its length and the
`max_sentence_length` setting that refuses or skips such sentences.
"""

import logging

logger = logging.getLogger(__name__)

LONG_SENTENCE = 300  # words; above this a sentence is named once


class LongSentenceWarning:
    """Warns about the first sentence longer than `threshold` words, then stays quiet."""

    def __init__(self, setting: str, threshold: int = LONG_SENTENCE) -> None:
        self.setting = setting  # how to set max_sentence_length where this warning is given
        self.threshold = threshold
        self.warned = False

    def check(self, length: int, where: str, limit: object) -> None:
        """`where`: e.g. `file:line` or `line 7`; `limit`: the max_sentence_length in force (None: none)."""
        if self.warned or length <= self.threshold:
            return
        self.warned = True
        logger.warning(
            "%s: a sentence of %d words; a parser's time and memory grow with the square of the length, "
            "so this one is slow (a sentence break missing?). max_sentence_length is %s; %s. "
            "Further long sentences are not reported",
            where,
            length,
            "not set (no limit)" if limit is None else limit,
            self.setting,
        )
