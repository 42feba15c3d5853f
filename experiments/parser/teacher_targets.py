"""How much a parser teacher's soft targets say beyond the gold tree, on its training set and on dev.

Distillation (equation 3 of the seed paper) adds KL terms towards the teacher's arc and label
distributions on the *training* sentences. When the teacher has fit those sentences, its
distributions there are close to one-hot on the gold answer and the KL terms repeat the
cross-entropy ones. This script measures that, per treebank teacher, on train and on dev:

- `uas`, `las`: the teacher's own attachment scores (tree decoding, all words, full labels, as
  in parser_distillation.py), from the same scoring pass;
- `gold_head_prob`, `gold_label_prob`: mean probability the teacher gives the gold head, and the
  gold relation at the gold head (the distributions the KL terms use, temperature 1);
- `arc_entropy`, `label_entropy`: mean entropy of those distributions, in nats;
- `arc_near_one_hot`: share of words whose arc distribution puts at least 0.99 on one head.

Where a treebank also has cross-fitting teachers (RUNS/parser/<treebank>/fold_teachers/fold<i>,
experiments/parser/run_cross_fit.sh), a `train_cross_fitted` row gives the same statistics for the
targets a cross-fitted student learns from: each training sentence scored by the fold teacher that
did not train on it. Each fold teacher's own dev scores are listed with it.

Other teachers of the same treebank, trained as ablations (RUNS/parser/<treebank>/ablations/<name> for
a name in OTHER_TEACHERS, e.g. EWT's MiniLM teacher), get `train_<name>` and `dev_<name>` rows.

    python -m experiments.parser.teacher_targets [--runs runs] [--treebanks UD_English-EWT ...]

Writes experiments/parser/results/parser_teacher_targets.json and .md.
"""

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

import torch
from allennlp.common.plugins import import_plugins
from allennlp.models.archival import load_archive
from torch.distributions import Categorical

from benchmarks.common import earlier_treebanks, hardware_description, write_results
from benchmarks.parser.distillation import TREEBANKS
from benchmarks.parser.parsing import ensure_archive, has_weights, make_batches, read_for_model
from green_nlp.data.folds import sentence_fold
from green_nlp.settings import data_path
from green_nlp.training.callbacks.parser_distillation import check_fold_teacher

RESULTS = Path(__file__).resolve().parent / "results"  # the study's own figures, beside its scripts

NEAR_ONE_HOT = 0.99
# ablation runs that are teachers of their own D-x students (ABLATION=<treebank>_<name>, experiments/parser/),
# each with the folder under RUNS/parser/<treebank>/ where its cross-fitting fold teachers are trained
OTHER_TEACHERS = {"minilm_teacher": "minilm_fold_teachers"}


def target_statistics(model, batches: list) -> dict[str, float]:
    """The teacher's UAS/LAS and the means over words of its arc and gold-head label distributions
    (see module doc), from one scoring pass per batch."""
    return pooled_target_statistics([(model, batches)])


def pooled_target_statistics(scored: Sequence[tuple[Any, list]]) -> dict[str, float]:
    """`target_statistics` over several (teacher, batches) pairs at once, averaged over all their
    words: the targets of cross-fitting teachers, each on the sentences of its own fold."""
    sums = {
        "uas": 0.0,
        "las": 0.0,
        "gold_head_prob": 0.0,
        "gold_label_prob": 0.0,
        "arc_entropy": 0.0,
        "label_entropy": 0.0,
        "arc_near_one_hot": 0.0,
    }
    words = labelled_words = 0
    with torch.inference_mode():
        for model, tensors in ((model, tensors) for model, batches in scored for tensors, _ in batches):
            scores = model.score(tensors["words"], tensors.get("upos") if model.upos_embedding is not None else None)
            heads, tags = tensors["head_indices"], tensors["head_tags"]
            mask = scores["mask"][:, 1:]
            # the trees and labels `allennlp predict` gives; an out-of-vocabulary gold label (-1) never matches
            decoded = model.decode(scores)
            right_head = (decoded["heads"] == heads) & mask
            sums["uas"] += 100 * right_head.sum().item()
            sums["las"] += 100 * (right_head & (decoded["head_tags"] == tags)).sum().item()
            arcs = Categorical(logits=scores["arc_scores"][:, 1:])
            labels = Categorical(logits=model.label_scores(scores, model._with_root(heads))[:, 1:])
            seen = mask & (tags >= 0)  # a relation outside the vocabulary has no gold label probability
            sums["gold_head_prob"] += arcs.probs.gather(-1, heads.unsqueeze(-1)).squeeze(-1)[mask].sum().item()
            sums["arc_entropy"] += arcs.entropy()[mask].sum().item()
            sums["arc_near_one_hot"] += (arcs.probs.max(-1).values >= NEAR_ONE_HOT)[mask].sum().item()
            gold_label_probs = labels.probs.gather(-1, tags.clamp(min=0).unsqueeze(-1)).squeeze(-1)
            sums["gold_label_prob"] += gold_label_probs[seen].sum().item()
            sums["label_entropy"] += labels.entropy()[seen].sum().item()
            words += int(mask.sum())
            labelled_words += int(seen.sum())
    per_label_word = {"gold_label_prob", "label_entropy"}
    rounding = {"uas": 2, "las": 2}
    return {
        key: round(value / max(labelled_words if key in per_label_word else words, 1), rounding.get(key, 4))
        for key, value in sums.items()
    }


def teacher_rows(run_dir: Path, files: dict[str, Path]) -> dict[str, dict[str, Any]]:
    archive_path, _ = ensure_archive(run_dir)
    archive = load_archive(str(archive_path))
    model = archive.model.eval()
    rows = {}
    for split, path in files.items():
        rows[split] = target_statistics(model, make_batches(read_for_model(archive, path), model.vocab, 64))
        print(f"{run_dir}: {split} {rows[split]}", flush=True)
    return rows


def cross_fitted_rows(fold_dirs: list[Path], files: dict[str, Path]) -> dict[str, Any]:
    """Statistics of the targets each training sentence gets from the fold teacher that left it out,
    and each fold teacher's own dev UAS/LAS."""
    scored, fold_dev = [], []
    for fold, run_dir in enumerate(fold_dirs):
        archive_path, _ = ensure_archive(run_dir)
        archive = load_archive(str(archive_path))
        check_fold_teacher(archive, str(archive_path), fold, len(fold_dirs))
        model = archive.model.eval()
        own_fold = [
            instance
            for instance in read_for_model(archive, files["train"])
            if sentence_fold(instance["metadata"]["words"], len(fold_dirs)) == fold
        ]
        scored.append((model, make_batches(own_fold, model.vocab, 64)))
        dev = target_statistics(model, make_batches(read_for_model(archive, files["dev"]), model.vocab, 64))
        fold_dev.append(
            {"fold": fold, "train_sentences_scored": len(own_fold), "dev_uas": dev["uas"], "dev_las": dev["las"]}
        )
    row: dict[str, Any] = pooled_target_statistics(scored)
    print(f"cross-fitted train targets: {row}; fold teachers: {fold_dev}", flush=True)
    return {"train_cross_fitted": row, "fold_teachers": fold_dev}


def treebank_rows(runs: Path, treebank: str, earlier: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
    """The teacher's rows on train and dev, plus the cross-fitted ones when fold teachers exist; None
    when there is nothing to score. Fold teachers trained after the teacher's run was gone (same
    config, its vocabulary rebuilt) are scored beside the teacher rows of `earlier`, marked so."""
    name, test_name = TREEBANKS[treebank]
    run_dir = runs / "parser" / name / "teacher"
    fold_dirs = fold_run_dirs(runs / "parser" / name / "fold_teachers")
    ablations = runs / "parser" / name / "ablations"
    other_dirs = {other: ablations / other for other in OTHER_TEACHERS if has_weights(ablations / other)}
    if not has_weights(run_dir) and not ((fold_dirs or other_dirs) and earlier):
        print(f"{treebank}: no teacher run at {run_dir}, skipped")
        return None
    files = {split: data_path("ud", treebank, test_name.replace("-test.", f"-{split}.")) for split in ("train", "dev")}
    if has_weights(run_dir):
        rows: dict[str, Any] = teacher_rows(run_dir, files)
    else:
        rows = {"train": earlier["train"], "dev": earlier["dev"], "teacher_scored_earlier": True}
    rows.update(fold_rows(fold_dirs, files, earlier, ""))
    for other, folds_folder in OTHER_TEACHERS.items():
        if other in other_dirs:
            rows.update({f"{split}_{other}": row for split, row in teacher_rows(other_dirs[other], files).items()})
        else:  # its run is gone: keep what was scored of it
            rows.update({key: earlier[key] for key in (f"train_{other}", f"dev_{other}") if key in (earlier or {})})
        rows.update(fold_rows(fold_run_dirs(runs / "parser" / name / folds_folder), files, earlier, f"{other}_"))
    return rows


def fold_rows(
    fold_dirs: list[Path], files: dict[str, Path], earlier: Optional[dict[str, Any]], prefix: str
) -> dict[str, Any]:
    """`train_<prefix>cross_fitted` and `<prefix>fold_teachers` from the fold teachers' runs, or as
    scored earlier when those runs are gone (none where neither exists)."""
    keys = {"train_cross_fitted": f"train_{prefix}cross_fitted", "fold_teachers": f"{prefix}fold_teachers"}
    if fold_dirs:
        return {keys[key]: row for key, row in cross_fitted_rows(fold_dirs, files).items()}
    return {key: earlier[key] for key in keys.values() if key in (earlier or {})}


def fold_run_dirs(root: Path) -> list[Path]:
    """The fold teachers' run folders under `root` (fold0, fold1, ...), in fold order."""
    return sorted(root.glob("fold[0-9]*/"), key=lambda path: int(path.name[4:]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    parser.add_argument("--treebanks", nargs="+", default=list(TREEBANKS), choices=sorted(TREEBANKS))
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument(
        "--replace",
        action="store_true",
        help="drop treebanks of an earlier results file that this run does not measure "
        "(default: keep them, e.g. when their teacher runs are no longer at hand)",
    )
    args = parser.parse_args()
    import_plugins()
    torch.set_num_threads(1)
    earlier = earlier_treebanks(args.out / "parser_teacher_targets.json", args.replace)
    results: dict[str, Any] = {
        "benchmark": "parser_teacher_targets",
        "hardware": hardware_description(),
        "near_one_hot_threshold": NEAR_ONE_HOT,
        "treebanks": {},
    }
    for treebank in args.treebanks:
        rows = treebank_rows(args.runs, treebank, earlier.get(treebank))
        if rows is not None:
            results["treebanks"][treebank] = rows
    results["treebanks"] = {**earlier, **results["treebanks"]}
    table = {
        f"{treebank} {split}": row
        for treebank, rows in results["treebanks"].items()
        for split, row in rows.items()
        if isinstance(row, dict)
    }
    columns = ["uas", "las", "gold_head_prob", "arc_entropy", "arc_near_one_hot", "gold_label_prob", "label_entropy"]
    note = (
        "Teacher (full parser) of each treebank on its training set, where distillation's KL terms are "
        "computed, and on dev (train_cross_fitted: each training sentence scored by the cross-fitting teacher "
        "that did not train on it; <split>_minilm_teacher: a stronger teacher trained as an ablation, "
        "train_minilm_teacher_cross_fitted: the same from its cross-fitting fold teachers; where "
        "teacher_scored_earlier, the teacher's rows come from a run no longer at hand, of the same config). "
        "Probabilities at temperature 1; entropies in nats; arc_near_one_hot: share of "
        f"words with one head at probability >= {NEAR_ONE_HOT}."
    )
    write_results(args.out, "parser_teacher_targets", results, table, columns, note)


if __name__ == "__main__":
    main()
