"""Regenerate the README's results section from benchmarks/results/: one part per results JSON, shown
through the Markdown table (and PNG plot) that the same benchmark script generated from that JSON.

    python benchmarks/update_readme.py
"""
from pathlib import Path

START, END = "<!-- results:start -->", "<!-- results:end -->"
TITLES = {
    "parser_ewt": "Dependency parsing, UD English-EWT test (`benchmarks/parser_ewt.py`)",
    "parser_distillation": "Parser distillation: full vs students vs peers (`benchmarks/parser_distillation.py`)",
    "parser_ablations": "Parser distillation ablations (`benchmarks/parser_ablations.py`)",
    "parser_teacher_targets": "What a parser teacher's soft targets hold beyond the gold tree "
                              "(`benchmarks/parser_teacher_targets.py`)",
    "distillation_overhead": "What distillation adds to a student's training step (`benchmarks/distillation_overhead.py`)",
    "tree_decoders": "Tree decoding alone (`benchmarks/tree_decoders.py`)",
    "ldnet": "LD-Net: NoLM vs LM-augmented vs layer-pruned taggers (`benchmarks/ldnet.py`)",
    "dan": "Sparse distillation: MiniLM teacher vs n-gram DAN students (`benchmarks/dan.py`)",
    "dan_trec_seeds": "Sparse distillation on TREC over seeds (`benchmarks/dan_trec_seeds.py`)",
    "dan_imdb_seeds": "Sparse distillation on IMDB over seeds (`benchmarks/dan_imdb_seeds.py`)",
    "dan_word_vectors": "DAN n-gram table started from GloVe vs random (`benchmarks/dan_word_vectors.py`)",
    "robustness": "Bad input handled (`benchmarks/robustness.py`)",
    "gpu/parser_distillation": "Parser distillation on a GPU (`benchmarks/parser_distillation.py --devices gpu`, "
                               "on the archives at hand then; a machine with a GPU, not the CPU above)",
}
ORDER = ["parser_ewt", "parser_distillation", "gpu/parser_distillation", "parser_ablations", "parser_teacher_targets",
         "distillation_overhead", "tree_decoders", "ldnet", "dan", "dan_trec_seeds", "dan_imdb_seeds",
         "dan_word_vectors", "robustness"]


def results_section(results_dir: Path) -> str:
    parts = []
    # results_dir/*.json, and one folder down for figures taken on other hardware (gpu/)
    found = list(results_dir.glob("*.json")) + list(results_dir.glob("*/*.json"))
    stems = sorted((p.relative_to(results_dir).with_suffix("").as_posix() for p in found),
                   key=lambda stem: (ORDER.index(stem) if stem in ORDER else len(ORDER), stem))
    for stem in stems:
        table = results_dir / f"{stem}.md"
        if not table.exists():
            raise SystemExit(f"{stem}.json has no {stem}.md: re-run the benchmark script that writes it")
        title = TITLES.get(stem, stem)
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
