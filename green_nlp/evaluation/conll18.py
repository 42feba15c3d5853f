"""The official CoNLL 2018 shared-task evaluation of a predicted CoNLL-U file against gold.

The scoring is the shared task's own script (`conll18_ud_eval.py`, as stanza ships it), not a
re-implementation: its word alignment, its content/functional relation lists and its MLAS rules
are what published UD parsing scores use, so reusing it keeps green_nlp's figures comparable.
It differs from green_nlp's strict LAS in one main way: it compares relations without their
subtypes (`nsubj:pass` counts as `nsubj`, `obl:tmod` as `obl`).

    python -m green_nlp.evaluation.conll18 GOLD.conllu PREDICTED.conllu

A file that cannot be scored (missing, not UTF-8, not CoNLL-U) is one line on stderr naming it,
exit status 2; a UTF-8 byte-order mark is accepted, as green_nlp's CoNLL-U reader accepts it.
"""

import argparse
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Optional, Union

PathLike = Union[str, Path]


@dataclass(frozen=True)
class Conll18Scores:
    """F1 in percent. With the gold words (gold tokenization) UAS and LAS are plain accuracies;
    CLAS and MLAS count a word as content by its own relation on each side."""

    uas: float  # head
    las: float  # head and universal relation (subtype dropped)
    clas: float  # LAS over content words only (no function words, no punctuation)
    mlas: float  # CLAS that also needs UPOS, universal FEATS and the function-word children right
    gold_words: int
    tokens: float = 100.0  # tokenization: predicted tokens whose span matches a gold token's
    sentences: float = 100.0  # sentence boundaries: predicted sentences whose span matches a gold one's
    words: float = 100.0  # the same for syntactic words (multiword tokens split)
    upos: float = 100.0  # aligned words with the gold UPOS
    xpos: float = 0.0  # ... the gold XPOS
    ufeats: float = 0.0  # ... the gold universal FEATS (all of them)
    lemmas: float = 0.0  # ... the gold LEMMA
    blex: float = 0.0  # CLAS that also needs the lemma right


def _scorer() -> Any:
    try:
        from stanza.utils import conll18_ud_eval
    except ImportError as error:  # the runtime install has no stanza: it is a training/benchmark tool
        raise ImportError(
            "the CoNLL 2018 evaluation needs stanza (pip install -r requirements/base.txt "
            "-c requirements/constraints.txt)"
        ) from error
    return conll18_ud_eval


def score_conllu(gold: PathLike, predicted: PathLike) -> Conll18Scores:
    """Score `predicted` against `gold`; a ValueError says why two files cannot be aligned (e.g.
    different text) or one is not valid CoNLL-U for the scorer."""
    scorer = _scorer()

    def load(path: PathLike) -> Any:
        """One file as the scorer reads it; its errors (no file name in them) prefixed with `path`."""
        # utf-8-sig: a byte-order mark is dropped, as green_nlp's own CoNLL-U reader does
        with open(path, encoding="utf-8-sig") as handle:
            try:
                return scorer.load_conllu(handle, str(path), {})
            except scorer.UDError as error:
                raise ValueError(f"{path}: not CoNLL-U the scorer reads: {error}") from error

    gold_file, predicted_file = load(gold), load(predicted)
    try:
        evaluation = scorer.evaluate(gold_file, predicted_file)
    except scorer.UDError as error:
        raise ValueError(f"cannot score {predicted} against {gold}: {error}") from error

    def percent(metric: str) -> float:
        return 100.0 * evaluation[metric].f1

    return Conll18Scores(
        uas=percent("UAS"),
        las=percent("LAS"),
        clas=percent("CLAS"),
        mlas=percent("MLAS"),
        gold_words=evaluation["Words"].gold_total,
        tokens=percent("Tokens"),
        sentences=percent("Sentences"),
        words=percent("Words"),
        upos=percent("UPOS"),
        xpos=percent("XPOS"),
        ufeats=percent("UFeats"),
        lemmas=percent("Lemmas"),
        blex=percent("BLEX"),
    )


PROG = "python -m green_nlp.evaluation.conll18"


def _unreadable(path: Path) -> Optional[str]:
    """Why `path` cannot be scored, as `file[:line]: why`, or None. Checked before the scorer opens
    it: a missing file was a FileNotFoundError traceback, and a file that is not UTF-8 a
    UnicodeDecodeError that named no file."""
    try:
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    return (
                        f"{path}:{number}: not valid UTF-8 ({error.reason} at byte {error.start}); "
                        "re-encode the file as UTF-8"
                    )
    except OSError as error:
        return f"{path}: {error.strerror or error}"
    return None


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Print the scores; a file that cannot be scored is one line on stderr naming it, exit status 2."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("gold", type=Path)
    parser.add_argument("predicted", type=Path)
    args = parser.parse_args(argv)
    problem = _unreadable(args.gold) or _unreadable(args.predicted)
    if problem is None:
        try:
            result = score_conllu(args.gold, args.predicted)
        except (ValueError, ImportError) as error:  # ImportError: no stanza, and what to install
            problem = str(error)
    if problem is not None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        sys.exit(2)
    scores = asdict(result)
    print(
        "  ".join(
            f"{name.upper()} {value:.2f}" if isinstance(value, float) else f"{name} {value}"
            for name, value in scores.items()
        )
    )


if __name__ == "__main__":
    main()
