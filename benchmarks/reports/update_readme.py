"""Regenerate the README's results section and docs/results.md from benchmarks/results/: one part per
results JSON, shown through the Markdown table (and PNG plot) that the same benchmark script generated
from that JSON. The README keeps the headline results a new user looks for first; every other part
(diagnostics, shipped models, runtime, figures from other hardware) goes to docs/results.md. Only the
measurements behind those two pages live here: a study's figures stay in its own folder of the lab.

    python -m benchmarks.reports.update_readme
"""

import argparse
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Optional

from benchmarks.common import REPO
from benchmarks.reports.energy import METHOD, cpu_seconds_per_million, wh_per_million

START, END = "<!-- results:start -->", "<!-- results:end -->"
TITLES = {
    "parser_ewt": "Dependency parsing, UD English-EWT test (`python -m benchmarks.parser.ewt`)",
    "parser_distillation": "Parser distillation: full vs students vs peers "
    "(`python -m benchmarks.parser.distillation`)",
    "distillation_overhead": "What distillation adds to a student's training step "
    "(`python -m benchmarks.parser.distillation_overhead`)",
    "tree_decoders": "Tree decoding alone (`python -m benchmarks.parser.tree_decoders`)",
    "ldnet": "LD-Net: NoLM vs LM-augmented vs layer-pruned taggers (`python -m benchmarks.ldnet.taggers`)",
    "dan": "Sparse distillation: MiniLM teacher vs n-gram DAN students (`python -m benchmarks.dan.distillation`)",
    "robustness": "Bad input handled (`python -m benchmarks.robustness.bad_input`)",
    "runtime": "The torch-free runtime against AllenNLP: cold start, speed, memory, size "
    "(`python -m benchmarks.runtime.parser`)",
    "pretrained_en_ewt_parser": "Shipped model en-ewt-parser (`scripts/build_pretrained.py en-ewt-parser`)",
    "shipped_parser_conll18": "The shipped parser under the CoNLL 2018 shared-task evaluation, from gold tokens and "
    "from raw text (`python -m benchmarks.parser.shipped_conll18`)",
    "parser_raw_paragraphs": "The shipped parser on running text: EWT paragraphs, its own sentence splits "
    "(`python -m benchmarks.parser.raw_paragraphs`)",
    "parser_unknown_words": "Text in another language: words unknown to the shipped parser, per corpus "
    "(`python -m benchmarks.parser.unknown_words`)",
    "parser_lemma_choice": "Lemmas that are words: the lemma choice's word list on EWT dev and test "
    "(`python -m benchmarks.parser.lemma_choice`)",
    "parser_teacher_scale_table": "Teacher-scale distillation: the MiniLM teacher, B-20, self-training and D-20 on "
    "silver text, and the shipped parser (`python -m benchmarks.parser.teacher_scale_table`)",
    "pretrained_en_sst2_sentiment": "Shipped model en-sst2-sentiment (`scripts/build_pretrained.py en-sst2-sentiment`)",
    "dan_runtime_speed": "The n-gram DAN served four ways, and fastText (`python -m benchmarks.runtime.dan`)",
    "dan_engines": "The sentiment DAN's two engines, onnxruntime and numba, beside fastText "
    "(`python -m benchmarks.runtime.dan_engines`)",
    "dan_long_texts": "The sentiment DAN on whole reviews: each review whole or its sentences' mean "
    "(`python -m benchmarks.dan.long_texts`)",
    "tagger_runtime_speed": "The LD-Net tagger: AllenNLP predictor vs the ONNX runtime "
    "(`python -m benchmarks.runtime.tagger`)",
    "serve_load": "HTTP serving under load, with and without micro-batching (`python -m benchmarks.serve.load`)",
    "time_budget": "Where the time goes: per-stage budget of the shipped models, beside fastText and spaCy, "
    "whole processes and cold starts (`python -m benchmarks.runtime.time_budget --runtime-venv VENV`)",
    "time_budget_runs": "Every saved time-budget run, and each CPU's range over its runs "
    "(`python -m benchmarks.runtime.time_budget_runs`)",
    "thread_cost": "What a second onnxruntime thread costs whole runs of the shipped models "
    "(`python -m benchmarks.runtime.thread_cost --runtime-venv VENV`)",
    "parser_release_speed": "The shipped parser across releases, each with its own runtime "
    "(`python -m benchmarks.parser.release_speed`)",
    "parser_character_encoder": "The shipped parser's character encoder: its convolution as one MatMul, new "
    "words in runs of similar length (`python -m benchmarks.parser.character_encoder`)",
    "parser_lemma_head": "The shipped parser with its lemma head run only on the words its dictionary lacks "
    "(`python -m benchmarks.parser.lemma_head`)",
    "ray_scaling": "Bulk prediction and teacher labeling on Ray (`python -m benchmarks.serve.ray_scaling`)",
    "gpu/parser_distillation": "Parser distillation on a GPU "
    "(`python -m benchmarks.parser.distillation --devices gpu`, "
    "on the archives at hand then; a machine with a GPU, not the CPU of the README)",
    "gpu/parser_gpu_throughput": "The shipped parser on a GPU: throughput and the board's energy per million "
    "tokens (`python -m benchmarks.parser.gpu_throughput`; a machine with a GPU, not the CPU of the README)",
}
# shown in the README, in this order; every other results JSON goes to docs/results.md
HEADLINE = ["parser_ewt", "parser_distillation", "ldnet", "dan"]
ORDER = HEADLINE + [
    "gpu/parser_distillation",
    "gpu/parser_gpu_throughput",
    "distillation_overhead",
    "tree_decoders",
    "robustness",
    "runtime",
    "pretrained_en_ewt_parser",
    "shipped_parser_conll18",
    "parser_raw_paragraphs",
    "parser_unknown_words",
    "parser_lemma_choice",
    "parser_teacher_scale_table",
    "parser_release_speed",
    "parser_character_encoder",
    "parser_lemma_head",
    "pretrained_en_sst2_sentiment",
    "dan_runtime_speed",
    "dan_engines",
    "dan_long_texts",
    "time_budget",
    "time_budget_runs",
    "thread_cost",
    "tagger_runtime_speed",
    "serve_load",
    "ray_scaling",
]
# plots a benchmark writes under another name than its JSON's
EXTRA_PLOTS = {"dan": ["dan_pruning"]}
RESULTS_DOC_HEAD = """# Further results

Diagnostics, shipped models, runtime and serving measurements and figures from other hardware, beside the
headline tables in the [README](../README.md#results). Generated from `benchmarks/results/` by
`python -m benchmarks.reports.update_readme`; do not edit by hand. The studies that asked a question about
the methods (ablations, seed studies) keep their figures beside their own scripts, in the lab folder the
README's layout names; what they show is discussed in [parser.md](parser.md) and [dan.md](dan.md).
"""


# speed columns measured in CPU time (or on one thread): each gets its CPU-seconds and energy per million
CPU_SPEED = re.compile(
    r"^(?:(?P<unit>[a-z]+)_per_cpu_s|(?:[a-z_]+_)?cpu_(?P<unit2>[a-z]+)_per_s|CPU (?P<unit3>tok|sent)/s\b.*"
    r"|(?P<unit4>tokens|texts|words)/s \(1 thread\b.*)$"
)
RAW_RUN = re.compile(r"\.run\d+$")
UNIT_NAMES = {"tok": "tokens", "sent": "sentences"}


def _number(cell: str) -> Optional[float]:
    try:
        return float(cell.replace(",", "").strip())
    except ValueError:
        return None


def _energy_cell(cell: str) -> str:
    rate = _number(cell)
    seconds, wh = cpu_seconds_per_million(rate), wh_per_million(rate)
    if seconds is None or wh is None:
        return ""
    return f"{seconds:,.0f} s, {wh:.3g} Wh" if seconds >= 100 else f"{seconds:.1f} s, {wh:.3g} Wh"


def with_energy(table: str) -> str:
    """`table` (a results .md) with a column after each CPU speed column: CPU-seconds and estimated
    watt-hours per million of its unit, and the estimate's method below. Tables that already carry
    their own `cpu_s_per_million` are left as they are."""
    if "cpu_s_per_million" in table:
        return table
    lines, added = table.split("\n"), False
    index = 0
    while index < len(lines):
        line = lines[index]
        if not (line.startswith("|") and index + 1 < len(lines) and lines[index + 1].startswith("|---")):
            index += 1
            continue
        header = [cell.strip() for cell in line.strip().strip("|").split("|")]
        matches = [CPU_SPEED.match(name) for name in header]
        speed = [i for i, match in enumerate(matches) if match]
        end = index + 2
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        if speed:
            added = True
            for row in range(index, end):
                cells = lines[row].strip().strip("|").split("|")
                for i in reversed(speed):
                    if row == index:
                        match = matches[i]
                        assert match is not None
                        unit = next(u for u in match.groups() if u)
                        new = f" CPU-s, Wh per M {UNIT_NAMES.get(unit, unit)} "
                    elif row == index + 1:
                        new = "---"
                    else:
                        new = f" {_energy_cell(cells[i])} " if i < len(cells) else " "
                    cells.insert(i + 1, new)
                lines[row] = "|" + "|".join(cells) + "|"
        index = end
    if not added:
        return table
    return "\n".join(lines).rstrip("\n") + f"\n\nCPU-s, Wh per M: CPU-seconds per million, and {METHOD}.\n"


def result_stems(results_dir: Path) -> list[str]:
    """Every results JSON under results_dir (and one folder down, for figures taken on other hardware),
    as a path without suffix, in ORDER and then by name."""
    found = list(results_dir.glob("*.json")) + list(results_dir.glob("*/*.json"))
    # one run's raw figures (`name.run1.json`, ...) feed other pages (model cards), not a table here
    found = [path for path in found if not RAW_RUN.search(path.stem)]
    return sorted(
        (p.relative_to(results_dir).with_suffix("").as_posix() for p in found),
        key=lambda stem: (ORDER.index(stem) if stem in ORDER else len(ORDER), stem),
    )


def render(results_dir: Path, stems: Iterable[str], page_dir: Path, level: str = "###") -> str:
    """The parts for `stems`, with image links relative to the page they go in (page_dir)."""
    parts = []
    for stem in stems:
        table = results_dir / f"{stem}.md"
        if not table.exists():
            raise SystemExit(f"{stem}.json has no {stem}.md: re-run the benchmark script that writes it")
        part = f"{level} {TITLES.get(stem, stem)}\n\n{with_energy(table.read_text().strip())}\n"
        for name in [table.stem] + EXTRA_PLOTS.get(stem, []):
            plot = table.with_name(f"{name}.png")
            if plot.exists():
                part += f"\n![{name}]({Path(os.path.relpath(plot, page_dir)).as_posix()})\n"
        parts.append(part)
    return "\n".join(parts)


def update(root: Path) -> None:
    """Rewrite README.md between its markers and docs/results.md as a whole."""
    results_dir = root / "benchmarks" / "results"
    stems = result_stems(results_dir)
    headline = [stem for stem in stems if stem in HEADLINE]
    further = [stem for stem in stems if stem not in HEADLINE]
    readme = root / "README.md"
    text = readme.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"README.md lacks the {START} ... {END} markers")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    section = render(results_dir, headline, root) if headline else "No benchmark has been run yet.\n"
    if further:
        section += (
            "\nMore results (diagnostics, shipped models, runtime and serving, GPU figures): "
            "[docs/results.md](docs/results.md).\n"
        )
    readme.write_text(f"{head}{START}\n{section}{END}{tail}")
    docs = root / "docs"
    docs.mkdir(exist_ok=True)
    body = render(results_dir, further, docs, level="##") if further else "No further benchmark has been run yet.\n"
    (docs / "results.md").write_text(f"{RESULTS_DOC_HEAD}\n{body}")


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    update(REPO)
    print("README.md results section and docs/results.md updated")


if __name__ == "__main__":
    main()
