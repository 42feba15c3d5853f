"""Regenerate the README's results section from benchmarks/results/*.md (written by the benchmarks).

    python benchmarks/update_readme.py
"""
from pathlib import Path

START, END = "<!-- results:start -->", "<!-- results:end -->"
TITLES = {
    "parser_ewt": "Dependency parsing, UD English-EWT test (`benchmarks/parser_ewt.py`)",
}


def results_section(results_dir: Path) -> str:
    parts = []
    for table in sorted(results_dir.glob("*.md")):
        title = TITLES.get(table.stem, table.stem)
        parts.append(f"### {title}\n\n{table.read_text().strip()}\n")
    return "\n".join(parts) if parts else "No benchmark has been run yet.\n"


def main() -> None:
    root = Path(__file__).resolve().parents[1]
    readme = root / "README.md"
    text = readme.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"README.md lacks the {START} ... {END} markers")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{START}\n{results_section(root / 'benchmarks' / 'results')}{END}{tail}")
    print("README.md results section updated")


if __name__ == "__main__":
    main()
