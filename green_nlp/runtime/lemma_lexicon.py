"""A (form, UPOS) -> lemma dictionary from a treebank's training file, consulted before the lemma
head's edit script (as UDPipe's lemmatizer dictionary).

The edit-script head generalizes to unseen words but errs on seen ones where casing or the suffix
is ambiguous (`Called -> Call`, `companies -> companie`, `i -> i` where EWT writes `I`). A word the
training file has seen with this UPOS gets the lemma it had there most often, provided that lemma
covers at least `MIN_SHARE` of the word's occurrences (a word whose lemma varies keeps the head's
choice). The form as written is looked up first, then the lower-cased form (whose lemma keeps the
treebank's casing: `google` PROPN -> `Google`). On UD English-EWT dev with gold tokens and the
model's own UPOS this took lemma accuracy from 94.45 to 96.81 (benchmarks.parser.ud_heads --split dev).

The dictionary travels as lines `form<TAB>UPOS<TAB>lemma<TAB>kind` (kind `e` exact, `l` lower-cased
form): as vocabulary namespace `NAMESPACE` in an archive, and as `FILE` (JSON) in an exported folder.
Torch-free.
"""

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Optional, Union

from green_nlp.runtime.errors import ModelFolderError
from green_nlp.runtime.folder_files import META_FILE, inside

NAMESPACE = "lemma_lexicon_labels"  # "*labels": a non-padded namespace, so it holds only these lines
FILE = "lemma_lexicon.json"
MIN_SHARE = 0.8
EXACT, LOWER = "e", "l"


def most_frequent_lemmas(counts: dict[tuple[str, str], Counter], min_share: float) -> dict[tuple[str, str], str]:
    """Per key, its most frequent lemma where that lemma covers at least `min_share` of the key's
    occurrences (an ambiguous form is left to the edit scripts)."""
    chosen = {}
    for key, lemmas in counts.items():
        lemma, count = lemmas.most_common(1)[0]
        if count >= min_share * sum(lemmas.values()):
            chosen[key] = lemma
    return chosen


class LemmaLexicon:
    """Lemmas of seen (form, UPOS) pairs: `exact` keyed by the form as written, `lower` by the
    lower-cased form; `exact` holds only the entries whose lemma `lower` would not give."""

    def __init__(self, exact: dict[tuple[str, str], str], lower: dict[tuple[str, str], str]) -> None:
        self.exact = exact
        self.lower = lower

    def __len__(self) -> int:
        return len(self.exact) + len(self.lower)

    @classmethod
    def from_words(cls, words: Iterable[tuple[str, str, str]], min_share: float = MIN_SHARE) -> "LemmaLexicon":
        """From (form, UPOS, lemma) triples; words without a lemma (`_`) are skipped."""
        exact_counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
        lower_counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
        for form, upos, lemma in words:
            if not form or not upos or not lemma or (lemma == "_" and form != "_"):
                continue
            exact_counts[(form, upos)][lemma] += 1
            lower_counts[(form.lower(), upos)][lemma] += 1
        lower = most_frequent_lemmas(lower_counts, min_share)
        exact = {
            key: lemma
            for key, lemma in most_frequent_lemmas(exact_counts, min_share).items()
            if lower.get((key[0].lower(), key[1])) != lemma
        }
        return cls(exact, lower)

    @classmethod
    def from_conllu(cls, path: Union[str, Path], min_share: float = MIN_SHARE) -> "LemmaLexicon":
        """From a CoNLL-U training file's syntactic words (multiword-token and empty-node lines skipped).

        The first part of a word written apart (`goeswith`: EWT's `Daniel R Castagnola@ENRON...`, `non
        respect`) is left out: UD gives it the whole word's lemma, which the part alone does not have
        (every `Daniel` got an e-mail address as its lemma, `non` got `nonrespect`)."""

        def sentences() -> Iterable[list[list[str]]]:
            rows: list[list[str]] = []
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    if not line.strip():
                        yield rows
                        rows = []
                        continue
                    if line.startswith("#"):
                        continue
                    columns = line.rstrip("\n").split("\t")
                    if len(columns) != 10:
                        raise ValueError(f"{path}:{number}: expected 10 tab-separated columns, got {len(columns)}")
                    if columns[0].isdigit():
                        rows.append(columns)
            yield rows

        def words() -> Iterable[tuple[str, str, str]]:
            for rows in sentences():
                split_words = {row[6] for row in rows if row[7] == "goeswith"}
                for row in rows:
                    if row[0] not in split_words:
                        yield row[1], row[3], row[2]

        return cls.from_words(words(), min_share)

    def lookup(self, form: str, upos: str) -> Optional[str]:
        found = self.exact.get((form, upos))
        return found if found is not None else self.lower.get((form.lower(), upos))

    def apply(self, words: Sequence[str], upos: Optional[Sequence[str]], lemmas: Sequence[str]) -> list[str]:
        """`lemmas` with every word the dictionary knows (with its UPOS) replaced by its entry;
        unchanged without UPOS."""
        if upos is None:
            return list(lemmas)
        return [
            found if (found := self.lookup(form, tag)) is not None else lemma
            for form, tag, lemma in zip(words, upos, lemmas)
        ]

    # ----------------------------------------------------------- storage
    def to_lines(self) -> list[str]:
        """One line per entry (`form TAB UPOS TAB lemma TAB kind`), sorted, for a vocabulary namespace or file."""
        lines = [f"{f}\t{u}\t{lemma}\t{LOWER}" for (f, u), lemma in self.lower.items()]
        lines += [f"{f}\t{u}\t{lemma}\t{EXACT}" for (f, u), lemma in self.exact.items()]
        return sorted(lines)

    @classmethod
    def from_lines(cls, lines: Iterable[str], source: str = "lemma lexicon") -> "LemmaLexicon":
        exact: dict[tuple[str, str], str] = {}
        lower: dict[tuple[str, str], str] = {}
        for number, line in enumerate(lines, 1):
            parts = line.split("\t")
            if len(parts) != 4 or parts[3] not in (EXACT, LOWER) or not all(parts[:3]):
                raise ValueError(f"{source}: entry {number} is not 'form<TAB>UPOS<TAB>lemma<TAB>e|l': {line[:80]!r}")
            table = exact if parts[3] == EXACT else lower
            table[(parts[0], parts[1])] = parts[2]
        return cls(exact, lower)

    def write(self, path: Path) -> None:
        """A JSON file: {"format": "form\\tupos\\tlemma\\tkind", "entries": [...]}."""
        payload = {"format": "form\tupos\tlemma\tkind", "entries": self.to_lines()}
        Path(path).write_text(json.dumps(payload, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> "LemmaLexicon":
        try:
            payload = json.loads(Path(path).read_text(encoding="utf-8"))
        except ValueError as error:
            raise ValueError(f"{path}: not a JSON lemma lexicon: {error}") from error
        entries = payload.get("entries") if isinstance(payload, dict) else None
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            raise ValueError(f"{path}: expected an object with 'entries', a list of strings")
        return cls.from_lines(entries, str(path))


def from_folder(folder: Path, meta: dict[str, Any]) -> Optional[LemmaLexicon]:
    """The dictionary an exported folder names under "lemma_lexicon" (None without one); its sha256
    was checked when the folder was read. A broken file is refused naming the folder."""
    entry = meta.get("lemma_lexicon")
    if entry is None:
        return None
    if not isinstance(entry, dict) or "file" not in entry:
        raise ModelFolderError(f"{folder}: {META_FILE} key lemma_lexicon must be an object with a 'file'")
    path = inside(folder, "lemma_lexicon.file", entry["file"])
    try:
        return LemmaLexicon.read(path)
    except (OSError, ValueError) as error:
        raise ModelFolderError(f"{folder}: lemma dictionary unreadable: {error}") from error
