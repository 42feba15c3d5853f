"""A lemma that is a word: where the lemma head's best edit script makes a string no text has
(`starring -> starre`, `condemned -> condemne`, `qualities -> qualitie`), take its next-best script
whose result is an attested word (`star`, `condemn`, `quality`).

The edit-script head (`lemma_rules`) generalizes to words it never saw, but on them it often strips
one letter too few or too many. A list of attested words - every form and lemma of the treebank's
training file, and every word seen at least `MIN_COUNT` times in the unlabelled text of the shared
data (IMDB reviews) - tells a word from a near-miss. Only the head's own top `TOP_K` scripts with a
probability at least `MIN_RATIO` times the best script's are tried, and never a whole-lemma script (`was -> be`: for
irregular words, not for unseen ones); a lemma equal to its form (an unseen name, a foreign word)
or already attested is kept, as is the best script's lemma where no candidate is a word - except
`_`, which becomes the form.

On UD English-EWT dev (gold tokens, the shipped parser's own UPOS) this took the lemma accuracy of
words unseen in training from 77.06 to 79.45 and of all words from 96.99 to 97.20; `TOP_K`,
`MIN_RATIO` and `MIN_COUNT` were chosen there (benchmarks.parser.lemma_choice). Torch-free:
the runtime and the AllenNLP model both use it.
"""

import math
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Optional

from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.folder_files import META_FILE, inside
from green_nlp.runtime.lemma_rules import is_whole_lemma, predicted_lemma

TOP_K = 5
# the ratio is exp(logit - best logit): the graph gives the top scripts' logits, which a softmax over
# every script would cost about 3 % of a raw-text parse to turn into probabilities
MIN_RATIO = 0.02
MIN_COUNT = 3
# count a running-text word only where it is written in lower case: a name (Starr, Hercule) then never
# becomes an "attested" lemma for a common word's form (starring -> starr); chosen on EWT dev
LOWER_CASE_ONLY = False
FILE = "attested_words.txt"
KEY = "attested_words"  # the folder metadata's key
NO_LEMMA = "_"
# a word of running text for the count: letters, with inner apostrophes or hyphens (`don't`, `x-ray`)
WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")


class AttestedWords:
    """Lower-cased words known to exist, and the lemma choice they drive."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(word.lower() for word in words if word)

    def __len__(self) -> int:
        return len(self.words)

    def settled(self, form: str, lemma: str) -> bool:
        """Whether the best script's lemma stands: it is the form itself, or an attested word. `_`
        (no lemma: the word list holds it, from EWT's lemma column) stands only for a form with an
        `@`, where EWT writes it (`Edison@ENRON`); a word such as `bee` or `molybdenum` had it kept."""
        if lemma == NO_LEMMA:
            return form == NO_LEMMA or "@" in form
        return lemma == form or lemma.lower() in self.words

    def choose(
        self,
        form: str,
        lemma: str,
        alternatives: Iterable[tuple[str, float]],
        top_k: Optional[int] = None,
        min_ratio: Optional[float] = None,
    ) -> str:
        """`lemma` (the best script's) unless it is not `settled` and one of the first `top_k`
        `alternatives` (the head's top scripts with their logits, best first) gives an attested
        word (defaults: the module's `TOP_K` and `MIN_RATIO`)."""
        if self.settled(form, lemma):
            return lemma
        least = MIN_RATIO if min_ratio is None else min_ratio
        scored = list(alternatives)[: TOP_K if top_k is None else top_k]
        best = max((logit for _, logit in scored), default=0.0)
        for rule, logit in scored:
            if math.exp(logit - best) < least or is_whole_lemma(rule):
                continue
            candidate = predicted_lemma(form, rule)
            if candidate and candidate.lower() in self.words:
                return candidate
        # EWT writes `_` as the lemma of some X words (goeswith parts, e-mail addresses); its whole-lemma
        # script then gives `_` to unseen names (`Penycate`), which CoNLL-U reads as "no lemma"
        return form if lemma == NO_LEMMA else lemma

    # ----------------------------------------------------------- building and storage
    @classmethod
    def from_sources(
        cls,
        treebank_words: Iterable[str],
        texts: Iterable[str],
        min_count: int = MIN_COUNT,
        lower_case_only: bool = LOWER_CASE_ONLY,
    ) -> "AttestedWords":
        """The treebank's forms and lemmas, and the words of `texts` seen at least `min_count` times
        (with `lower_case_only`, times written in lower case)."""
        counts: Counter[str] = Counter()
        for text in texts:
            if lower_case_only:
                counts.update(word for word in WORD.findall(text) if word.islower())
            else:
                counts.update(WORD.findall(text.lower()))
        return cls([*treebank_words, *(word for word, count in counts.items() if count >= min_count)])

    def write(self, path: Path) -> None:
        """One word per line, sorted."""
        Path(path).write_text("".join(f"{word}\n" for word in sorted(self.words)), encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> "AttestedWords":
        text = Path(path).read_text(encoding="utf-8")
        words = text.split("\n")
        if words and words[-1] == "":
            words.pop()
        bad = next((i for i, word in enumerate(words, 1) if not word or word != word.strip() or "\t" in word), None)
        if bad is not None:
            raise ValueError(f"{path}: line {bad} is not one word ({words[bad - 1][:40]!r})")
        return cls(words)


def from_folder(folder: Path, meta: dict[str, Any]) -> Optional[AttestedWords]:
    """The word list an exported folder names under `KEY` (None without one); its sha256 was
    checked when the folder was read. A broken file is refused naming the folder."""
    entry = meta.get(KEY)
    if entry is None:
        return None
    if not isinstance(entry, dict) or "file" not in entry:
        raise ModelFolderError(f"{folder}: {META_FILE} key {KEY} must be an object with a 'file'")
    path = inside(folder, f"{KEY}.file", entry["file"])
    try:
        return AttestedWords.read(path)
    except (OSError, ValueError) as error:
        raise ModelFolderError(f"{folder}: attested word list unreadable: {error}") from error
