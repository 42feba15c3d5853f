"""The results table: cases handled, by entry point."""

from typing import Any


def by_entry_point(details: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for d in details:
        entry = counts.setdefault(d.get("entry_point", "-"), {"cases": 0, "handled": 0})
        entry["cases"] += 1
        entry["handled"] += int(d["handled"])
    return counts


def markdown(details: list[dict[str, Any]]) -> str:
    handled = sum(d["handled"] for d in details)
    rows = [
        f"{handled} of {len(details)} bad-input cases handled.\n",
        "| entry point | cases | handled |",
        "|---|---|---|",
    ]
    rows += [f"| {entry} | {n['cases']} | {n['handled']} |" for entry, n in by_entry_point(details).items()]
    rows += ["", "| case | entry point | through | expected | handled | outcome |", "|---|---|---|---|---|---|"]
    for d in details:
        outcome = d["outcome"].replace("|", "\\|").replace("\n", " ")[:200]
        rows.append(
            f"| {d['case']} | {d.get('entry_point', '-')} | {d['through']} | {d['expected']} | "
            f"{'yes' if d['handled'] else 'NO'} | {outcome} |"
        )
    return "\n".join(rows) + "\n"
