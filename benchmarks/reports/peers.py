"""How the parser reports show peers trained for fewer epochs than the green models (allennlp-models'
and SuPar's parsers got 2 epochs where the green ones got 16-40): on the speed axis only, with a note
that says why, so that a training gap does not read as a model gap. Their scores stay in the JSON."""

from collections.abc import Iterable
from typing import Any


def epoch_span(epochs: Iterable[int]) -> str:
    """ "16" or "10-40": the range of a set of epoch counts."""
    values = sorted(set(epochs))
    return str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}"


def peer_epochs(rows: list[dict[str, Any]]) -> tuple[str, str]:
    """The peers' and the green models' epoch counts, each as a span ("" where there are none)."""
    peers = [row["epochs"] for row in rows if row.get("peer") and row.get("epochs")]
    ours = [row["epochs"] for row in rows if not row.get("peer") and row.get("epochs")]
    return (epoch_span(peers) if peers else "", epoch_span(ours) if ours else "")


def peer_label(name: str, row: dict[str, Any]) -> str:
    """A peer's row name, saying that it is there for speed only."""
    return f"{name} (peer, {row['epochs']} epochs: speed only)" if row.get("epochs") else f"{name} (peer: speed only)"


def peer_note(models: dict[str, dict[str, Any]]) -> list[str]:
    """Why the peers' rows carry no accuracy, from their training length against the green models'."""
    names = [name for name, row in models.items() if row.get("peer")]
    if not names:
        return []
    theirs, ours = peer_epochs(list(models.values()))
    budget = (
        f"trained for {theirs} epochs, the green models here for {ours}"
        if theirs and ours
        else "not trained as long as the green models here"
    )
    its, it_stands = ("its", "it stands") if len(names) == 1 else ("their", "they stand")
    return [
        f"{' and '.join(names)}: {budget} (the CPU time at hand did not allow training the peers as long), "
        f"so {its} accuracy would read as a model gap where there is a training gap; {it_stands} here for "
        f"speed only ({its} scores are in the results JSON)"
    ]


def speed_only(models: dict[str, dict[str, Any]], scores: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The rows as a table shows them: each peer renamed by `peer_label`, its `scores` left out."""
    hidden = set(scores)
    return {
        peer_label(name, row) if row.get("peer") else name: {
            key: value for key, value in row.items() if key not in hidden
        }
        if row.get("peer")
        else row
        for name, row in models.items()
    }
