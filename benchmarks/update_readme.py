"""Regenerate the README's results section from benchmarks/results/*.md (written by the benchmarks).

    python benchmarks/update_readme.py
"""
from pathlib import Path

START, END = "<!-- results:start -->", "<!-- results:end -->"
TITLES = {
    "parser_ewt": "Dependency parsing, UD English-EWT test (`benchmarks/parser_ewt.py`)",
    "parser_distillation": "Parser distillation: full vs students vs peers (`benchmarks/parser_distillation.py`)",
    "tree_decoders": "Tree decoding alone (`benchmarks/tree_decoders.py`)",
}


def results_section(results_dir: Path) -> str:
    parts = []
    for table in sorted(results_dir.glob("*.md")):
        title = TITLES.get(table.stem, table.stem)
        part = f"### {title}\n\n{table.read_text().strip()}\n"
        plot = table.with_suffix(".png")
        if plot.exists():
            part += f"\n![{table.stem}]({plot.relative_to(results_dir.parents[1]).as_posix()})\n"
        parts.append(part)
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
