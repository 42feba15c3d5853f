"""The official CoNLL 2018 shared-task evaluation of a predicted CoNLL-U file against gold.

The scoring is the shared task's own script (`conll18_ud_eval.py`, as stanza ships it), not a
re-implementation: its word alignment, its content/functional relation lists and its MLAS rules
are what published UD parsing scores use, so reusing it keeps green_nlp's figures comparable.
It differs from green_nlp's strict LAS in one main way: it compares relations without their
subtypes (`nsubj:pass` counts as `nsubj`, `obl:tmod` as `obl`).

    python -m green_nlp.evaluation.conll18 GOLD.conllu PREDICTED.conllu
"""

import argparse
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Union

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
    try:
        with open(gold, encoding="utf-8") as gold_file, open(predicted, encoding="utf-8") as predicted_file:
            evaluation = scorer.evaluate(
                scorer.load_conllu(gold_file, str(gold), {}), scorer.load_conllu(predicted_file, str(predicted), {})
            )
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold", type=Path)
    parser.add_argument("predicted", type=Path)
    args = parser.parse_args()
    scores = asdict(score_conllu(args.gold, args.predicted))
    print(
        "  ".join(
            f"{name.upper()} {value:.2f}" if isinstance(value, float) else f"{name} {value}"
            for name, value in scores.items()
        )
    )


if __name__ == "__main__":
    main()
