"""Dev and test accuracy of parser distillation ablations beside the runs they vary.

An ablation run lives at RUNS/parser/<treebank>/ablations/<name>/ and is trained from
the matrix in experiments/parser/variants.libsonnet (see experiments/parser/run_ablations.sh).
Each is scored with the same decoding as benchmarks/parser/distillation.py, next to the teacher and the D/B
students of its size, so a change to how students are distilled is judged on one footing.

    python -m experiments.parser.ablations [--runs runs] [--treebanks UD_Wolof-WTB]
        [--keep-earlier | --same-teacher-run]

With --keep-earlier, ablations scored before whose runs are no longer under --runs are kept as a
set of their own, `earlier_teacher_run`, with the teacher and D/B students they were scored beside:
a retrained teacher is another run (CPU training here is not bit-for-bit repeatable), so the two
sets are compared within themselves, not across.

With --same-teacher-run, no teacher was retrained: the new runs only add ablations trained under the
same configs and vocabulary (e.g. cross-fitting students, whose targets never come from the full
teacher). Rows scored before whose runs are gone then stay in the one set, marked `scored_earlier`;
a D/B row scored only by parser_distillation.py is taken from its JSON (test scores only).

Writes experiments/parser/results/parser_ablations.json and .md.
"""

import argparse
import json
import re
from pathlib import Path
from typing import Any

from allennlp.common.plugins import import_plugins
from allennlp.models.archival import load_archive

from benchmarks.common import RESULTS as BENCHMARK_RESULTS
from benchmarks.common import markdown_table, summarize_seeds
from benchmarks.parser.distillation import TREEBANKS, folder_of
from benchmarks.parser.parsing import (
    attachment_scores,
    ensure_archive,
    has_weights,
    make_batches,
    predict,
    read_for_model,
    training_info,
)
from green_nlp.nn.parameters import count_trainable_parameters
from green_nlp.settings import data_path

RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts

# What each ablation is compared with: the teacher and the runs of the same size trained the paper's
# way (D-20 and B-20 always; D-x and B-x too for an ablation named d<x>_... or b<x>_...).
BESIDE = ("full", "D-20", "B-20")
PAPER_STYLE = re.compile(r"full|[DB]-\d+")
# `<name>_seed<k>`: the run of <name>'s config under other seeds (see e.g. ud_ewt_b20_seed2.jsonnet)
OTHER_SEED = re.compile(r"(.+)_seed\d+")


def beside(ablation_names: list[str]) -> list[str]:
    sizes = {int(m.group(1)) for name in ablation_names if (m := re.match(r"[db](\d+)_", name))}
    sizes = sorted(sizes - {20})
    return list(BESIDE) + [f"{kind}-{size}" for size in sizes for kind in "DB"]


def score(run_dir: Path, files: dict[str, Path]) -> dict[str, Any]:
    archive_path, _ = ensure_archive(run_dir)
    archive = load_archive(str(archive_path))
    model = archive.model.eval()
    row: dict[str, Any] = {"params": count_trainable_parameters(model), **training_info(run_dir)}
    for split, path in files.items():
        predictions, _ = predict(model, make_batches(read_for_model(archive, path), model.vocab, 128))
        uas, las = attachment_scores(path, predictions)
        row[f"{split}_uas"], row[f"{split}_las"] = round(uas, 2), round(las, 2)
    return row


def benchmark_treebank(runs: Path, treebank: str) -> dict[str, Any]:
    name, test_name = TREEBANKS[treebank]
    files = {
        "dev": data_path("ud", treebank, test_name.replace("-test.", "-dev.")),
        "test": data_path("ud", treebank, test_name),
    }
    ablations = sorted(p for p in (runs / "parser" / name / "ablations").glob("*") if p.is_dir())
    if not ablations:
        return {}
    rows: dict[str, Any] = {}
    for variant in beside([run_dir.name for run_dir in ablations]):
        run_dir = runs / "parser" / name / folder_of(variant)
        if has_weights(run_dir):
            rows[variant] = score(run_dir, files)
    for run_dir in ablations:
        # how to train it again (rows scored before the variants table name their old config file)
        config = f"ABLATION={name}_{run_dir.name} experiments/parser/ablation.jsonnet"
        rows[run_dir.name] = {**score(run_dir, files), "config": config}
    for variant, row in rows.items():
        print(
            f"{treebank} {variant}: dev LAS {row['dev_las']} test UAS {row['test_uas']} LAS {row['test_las']}",
            flush=True,
        )
    return {"models": rows}


def keep_earlier_rows(earlier: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """`found` plus the earlier ablation rows it lacks, set apart with the rows they were beside."""
    earlier_models = earlier.get("models", {})
    kept = {
        name: row
        for name, row in earlier_models.items()
        if name not in found["models"] and not PAPER_STYLE.fullmatch(name)
    }
    if not kept:
        return {
            **found,
            **({"earlier_teacher_run": earlier["earlier_teacher_run"]} if "earlier_teacher_run" in earlier else {}),
        }
    context = {name: earlier_models[name] for name in beside(list(kept)) if name in earlier_models}
    return {**found, "earlier_teacher_run": {"models": {**context, **kept}}}


def add_earlier_rows(
    earlier: dict[str, Any], found: dict[str, Any], distillation_models: dict[str, Any]
) -> dict[str, Any]:
    """`found` plus the earlier rows it lacks, in the same set and marked `scored_earlier` (see the module doc):
    the comparators each ablation needs come first, from the earlier ablation rows or else parser_distillation's."""
    earlier_models, found_models = earlier.get("models", {}), found["models"]
    ablations = sorted(name for name in {**earlier_models, **found_models} if not PAPER_STYLE.fullmatch(name))
    rows: dict[str, Any] = {}
    for name in beside(ablations) + ablations:
        if name in found_models:
            rows[name] = found_models[name]
        elif name in earlier_models:
            rows[name] = {**earlier_models[name], "scored_earlier": True}
        elif name in distillation_models:
            model = distillation_models[name]
            rows[name] = {
                "test_uas": model["uas"],
                "test_las": model["las"],
                "params": model["params"],
                "epochs": model.get("epochs"),
                "scored_earlier": True,
            }
    kept_apart = {"earlier_teacher_run": earlier["earlier_teacher_run"]} if "earlier_teacher_run" in earlier else {}
    return {**found, **kept_apart, "models": rows}


def seed_means(models: dict[str, Any]) -> dict[str, Any]:
    """LAS mean, spread and range of each run trained under more than one seed, so that a gap between two runs is
    read against the spread of either: `<name>_seed<k>` joins `<name>`, and `b20_seed2` joins B-20 (d/b<x> name
    the paper-style students)."""
    groups: dict[str, list[str]] = {}
    for name in models:
        match = OTHER_SEED.fullmatch(name)
        if not match:
            continue
        base = re.sub(r"^([db])(\d+)$", lambda m: f"{m.group(1).upper()}-{m.group(2)}", match.group(1))
        groups.setdefault(base, [base] if base in models else []).append(name)
    return {
        base: {
            **summarize_seeds(
                {name: {split: models[name].get(f"{split}_las") for split in ("dev", "test")} for name in names}
            ),
            "runs": len(names),
        }
        for base, names in sorted(groups.items())
        if len(names) > 1
    }


def write_report(results: dict[str, Any]) -> None:
    lines = []
    columns = ["dev_uas", "dev_las", "test_uas", "test_las", "params", "epochs"]
    for treebank, found in results["treebanks"].items():
        lines.append(f"#### {treebank}\n")
        shown = {
            f"{name} (earlier)" if row.get("scored_earlier") else name: row for name, row in found["models"].items()
        }
        lines.append(markdown_table(shown, columns, "model"))
        if found.get("seed_means"):
            lines.append(f"#### {treebank}, runs trained under several seeds (LAS)\n")
            lines.append(
                markdown_table(
                    found["seed_means"],
                    ["runs", "dev_mean", "test_mean", "test_stdev", "test_min", "test_max"],
                    "model",
                )
            )
        if "earlier_teacher_run" in found:
            lines.append(f"#### {treebank}, an earlier teacher run (same config; its runs are no longer at hand)\n")
            lines.append(markdown_table(found["earlier_teacher_run"]["models"], columns, "model"))
    lines.append(
        "Ablations of how students are distilled, scored beside the teacher and the paper-style D/B students "
        "of the same size (same decoding, all words). See each run's config for what it changes. "
        "(earlier): scored from a run of the same config no longer at hand, the teacher not retrained "
        "since (no dev score: scored by parser_distillation.py only)."
    )
    text = "\n".join(lines) + "\n"
    (RESULTS / "parser_ablations.md").write_text(text)
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    parser.add_argument("--treebanks", nargs="+", default=["UD_Wolof-WTB"], choices=sorted(TREEBANKS))
    parser.add_argument(
        "--keep-earlier",
        action="store_true",
        help="keep earlier rows whose runs are gone, as a separate set (see module doc)",
    )
    parser.add_argument(
        "--same-teacher-run",
        action="store_true",
        help="no teacher was retrained: earlier rows whose runs are gone stay in the set (see module doc)",
    )
    args = parser.parse_args()
    if args.keep_earlier and args.same_teacher_run:
        parser.error("--keep-earlier (a retrained teacher) and --same-teacher-run (none) exclude each other")
    distillation_path = BENCHMARK_RESULTS / "parser_distillation.json"
    distillation = json.loads(distillation_path.read_text()) if distillation_path.exists() else {"treebanks": {}}
    import_plugins()
    path = RESULTS / "parser_ablations.json"
    results = json.loads(path.read_text()) if path.exists() else {"treebanks": {}}
    for treebank in args.treebanks:
        found = benchmark_treebank(args.runs, treebank)
        if found and args.keep_earlier:
            found = keep_earlier_rows(results["treebanks"].get(treebank, {}), found)
        if found and args.same_teacher_run:
            found = add_earlier_rows(
                results["treebanks"].get(treebank, {}),
                found,
                distillation["treebanks"].get(treebank, {}).get("models", {}),
            )
        if found:
            results["treebanks"][treebank] = found
        else:
            print(f"{treebank}: no ablation runs under {args.runs}, kept as it was")
    for found in results["treebanks"].values():
        found.pop("seed_means", None)
        if means := seed_means(found["models"]):
            found["seed_means"] = means
    RESULTS.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    write_report(results)


if __name__ == "__main__":
    main()
