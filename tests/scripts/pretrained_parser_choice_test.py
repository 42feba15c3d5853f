"""The shipped parser's recipe (scripts/pretrained_parser.py): the choice among the students (the
most accurate on dev, the gold-only baseline included; the smallest within a tie margin; within the
size budget), the figures it reads from runs instead of training, and the terms the card states."""

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "scripts"))
import pretrained_parser  # noqa: E402
from pretrained_common import AGREEMENT_FOR_INT8, FOLDER_BUDGET_BYTES  # noqa: E402
from pretrained_parser import (  # noqa: E402
    SHIPPED,
    TIE_LAS,
    choose,
    choose_shippable,
    run_training_hours,
    student_archives,
    terms_lines,
    training_hours,
)


def row(distilled: bool, parameters: int, dev_las: float, folder_bytes: int = 8_000_000) -> dict:
    return {
        "distilled": distilled,
        "parameters": parameters,
        "dev_int8": {"LAS": dev_las},
        "int8_folder_bytes": folder_bytes,
    }


def test_the_most_accurate_student_on_dev_ships():
    front = {
        "B-20": row(False, 3_000_000, 83.5),
        "self-training": row(True, 3_000_000, 83.9),
        "D-20 small": row(True, 3_000_000, 84.4),
        "D-20 large": row(True, 3_000_000, 84.1),
    }
    assert choose(front) == "D-20 small"


def test_the_gold_only_baseline_ships_when_no_teacher_trained_student_beats_it():
    front = {"B-20": row(False, 3, 84.0), "D-20": row(True, 3, 83.5), "self-training": row(True, 3, 83.8)}
    assert choose(front) == "B-20"


def test_within_the_tie_margin_the_smaller_student_ships():
    front = {"B-20": row(False, 3, 80.0), "D-20": row(True, 3, 84.0 - TIE_LAS / 2), "D-40": row(True, 5, 84.0)}
    assert choose(front) == "D-20"
    front["D-20"] = row(True, 3, 84.0 - 2 * TIE_LAS)
    assert choose(front) == "D-40"


def test_a_student_over_the_budget_is_never_chosen():
    front = {
        "B-20": row(False, 3, 80.0),
        "D-80": row(True, 9, 85.0, FOLDER_BUDGET_BYTES + 1),
        "D-20": row(True, 3, 81.0),
    }
    assert choose(front) == "D-20"
    with pytest.raises(SystemExit, match="budget"):
        choose({"D-80": row(True, 9, 85.0, FOLDER_BUDGET_BYTES + 1)})


def test_the_recipe_lists_every_finished_student_run_with_a_gold_only_baseline_per_budget():
    students = SHIPPED["en-ewt-parser"].students
    # the four of equal budget, B-20, self-training and D-20 at 20, 30, 40 epochs, then 15 seed copies
    assert len(students) == 28
    assert [s.label for s in students if not s.distilled] == [
        "B-20",
        "B-20, 20 epochs",
        "B-20, 30 epochs",
        "B-20, 40 epochs",
        "B-20, seed 2",
    ]
    by_label = {s.label: s.run for s in students}
    assert by_label["D-20 soft 49k, 40 epochs, seed 3"] == "silver_d20_large_seed3_e40"
    assert by_label["self-training (hard, 49k), seed 2"] == "silver_st20_large_seed2"
    assert len({s.run for s in students}) == len(students)  # each its own run folder


def test_a_student_whose_int8_graph_drifts_and_whose_fp32_graph_is_over_budget_is_passed_over():
    front = {"D-20, 40": row(True, 3, 87.2), "ST, 40": row(True, 3, 87.1), "B-20": row(False, 3, 85.0)}
    agreement = {"D-20, 40": AGREEMENT_FOR_INT8 - 0.0001, "ST, 40": AGREEMENT_FOR_INT8, "B-20": 1.0}
    asked: list[str] = []

    def agreement_of(label: str) -> float:
        asked.append(label)
        return agreement[label]

    over, under = FOLDER_BUDGET_BYTES + 1, FOLDER_BUDGET_BYTES
    chosen, graph, passed_over = choose_shippable(front, agreement_of, lambda label: over)
    assert (chosen, graph) == ("ST, 40", "int8") and asked == ["D-20, 40", "ST, 40"]
    assert list(passed_over) == ["D-20, 40"] and "99.49 %" in passed_over["D-20, 40"]
    # where its fp32 graph fits, the drifting student ships fp32 instead
    assert choose_shippable(front, agreement_of, lambda label: under) == ("D-20, 40", "fp32", {})
    # a student named by the caller is never swapped for another: it ships or the build stops
    with pytest.raises(SystemExit, match="D-20, 40 cannot ship"):
        choose_shippable(front, agreement_of, lambda label: over, forced="D-20, 40")
    # when every candidate is passed over, the build stops on the budget
    with pytest.raises(SystemExit, match="budget"):
        choose_shippable(front, lambda label: 0.9, lambda label: over)


def test_training_duration_reads_as_hours():
    assert training_hours("0:30:00") == pytest.approx(0.5)
    assert training_hours("2:03:36.5") == pytest.approx(2 + 216.5 / 3600)
    assert training_hours("1 day, 1:00:00") == pytest.approx(25.0)
    with pytest.raises(ValueError, match="training_duration"):
        training_hours("an hour")


def test_the_recipe_trains_nothing_and_names_the_missing_runs(tmp_path: Path):
    model = SHIPPED["en-ewt-parser"]
    last = model.students[-1]
    for student in model.students[:-1]:
        (tmp_path / student.run).mkdir()
        (tmp_path / student.run / "model.tar.gz").write_bytes(b"archive")
        (tmp_path / student.run / "metrics.json").write_text("{}")
    with pytest.raises(SystemExit, match=last.run) as stop:
        student_archives(model, tmp_path)
    assert "silver_students.sh" in str(stop.value)
    (tmp_path / last.run).mkdir()
    (tmp_path / last.run / "model.tar.gz").write_bytes(b"unfinished: no metrics.json")
    with pytest.raises(SystemExit, match=last.run):
        student_archives(model, tmp_path)
    (tmp_path / last.run / "metrics.json").write_text("{}")
    assert set(student_archives(model, tmp_path)) == {s.label for s in model.students}


def test_the_terms_say_research_use_exactly_when_the_student_read_imdb_text():
    figures = {"chosen": "D", "silver": {"sentences": 67_266}, "front": {"D": {"silver_sentences": 49_000}}}
    text = "\n".join(terms_lines(figures))
    assert "research-use only" in text and "Maas et al. 2011" in text and "49,000" in text
    figures["front"]["D"]["silver_sentences"] = 0
    assert "research-use only" not in "\n".join(terms_lines(figures))


def test_the_teacher_row_comes_from_its_run_files_without_its_archive(tmp_path: Path, monkeypatch):
    model = SHIPPED["en-ewt-parser"]
    run = tmp_path / model.teacher_run
    run.mkdir()
    metrics = {"epoch": 7, "training_duration": "0:02:33", "peak_gpu_0_memory_MB": 1830.7}
    (run / "metrics.json").write_text(json.dumps(metrics))
    for split, las in (("dev", 0.898), ("test", 0.9028)):
        (run / f"evaluate_{split}.json").write_text(json.dumps({"UAS": 0.92, "LAS": las, "upos_accuracy": 0.97}))
    (run / "train_seconds.json").write_text('{"teacher_train_seconds": 196}')
    (run / "model.tar.gz.sha256").write_text("ab" * 32 + "\n")
    monkeypatch.setattr(pretrained_parser, "teacher_parameters", lambda run: 27_000_000)
    teacher = pretrained_parser.teacher_figures(model, tmp_path)
    assert teacher["test_LAS"] == pytest.approx(90.28) and teacher["dev_LAS"] == pytest.approx(89.8)
    assert teacher["training_seconds"] == pytest.approx(153) and teacher["wall_seconds"] == 196
    assert teacher["epochs"] == 8 and not teacher["archive_here"] and teacher["archive_sha256"] == "ab" * 32
    (run / "train_seconds.json").unlink()
    with pytest.raises(SystemExit, match="train_seconds.json"):
        pretrained_parser.teacher_figures(model, tmp_path)


def test_results_show_paths_inside_the_repository_relative_to_it(tmp_path: Path) -> None:
    inside = REPO_ROOT / "runs" / "parser" / "ud_ewt" / "silver_b20" / "model.tar.gz"
    assert pretrained_parser.shown_path(inside) == "runs/parser/ud_ewt/silver_b20/model.tar.gz"
    assert pretrained_parser.shown_path(tmp_path / "model.tar.gz") == str(tmp_path / "model.tar.gz")


def test_training_energy_rows_use_the_cpu_share_and_bound_the_gpu_by_its_power_limit():
    from benchmarks.reports.energy import WATTS_PER_CPU

    figures = {"training_hours": 2.0, "teacher": {"training_seconds": 150.0}, "silver": {"label_seconds": 30}}
    student, teacher = pretrained_parser.training_energy_rows(figures)
    assert f"| {2.0 * WATTS_PER_CPU:.1f} Wh (2.00 CPU-h" in student
    assert "| 35 Wh (180 GPU-s x 700 W" in teacher  # 180 s x 700 W = 35 Wh


def test_the_card_says_when_the_shipped_student_had_a_larger_budget_than_its_baseline():
    assert pretrained_parser.budget_note({"epochs": 10}, {"epochs": 10}) == ""
    assert "20 epochs, the baseline 10: not an equal budget" in pretrained_parser.budget_note(
        {"epochs": 20}, {"epochs": 10}
    )


def test_the_shipped_student_is_compared_with_the_gold_only_run_of_its_own_budget():
    front = {
        "B-20": {"distilled": False, "epochs": 10},
        "D-20": {"distilled": True, "epochs": 10},
        "B-20, 20 epochs": {"distilled": False, "epochs": 20},
        "D-20, 20 epochs": {"distilled": True, "epochs": 20},
        "D-20, 30 epochs": {"distilled": True, "epochs": 30},
    }
    assert pretrained_parser.matching_baseline(front, "D-20") == "B-20"
    assert pretrained_parser.matching_baseline(front, "D-20, 20 epochs") == "B-20, 20 epochs"
    assert pretrained_parser.matching_baseline(front, "D-20, 30 epochs") == "B-20"  # none as long: the first


def test_training_hours_add_up_the_stretches_of_a_resumed_run(tmp_path):
    """`allennlp train -r` starts training_duration again from 0; each stretch's last epoch counts."""
    durations = ["0:30:00", "1:00:00", "0:20:00", "0:40:00", "0:15:00"]  # resumed after epochs 1 and 3
    for epoch, duration in enumerate(durations):
        metrics = {"epoch": epoch, "training_duration": duration}
        (tmp_path / f"metrics_epoch_{epoch}.json").write_text(json.dumps(metrics))
    assert run_training_hours(tmp_path) == pytest.approx(1.0 + 40 / 60 + 15 / 60)
    for path in tmp_path.glob("metrics_epoch_*.json"):
        path.unlink()
    (tmp_path / "metrics.json").write_text(json.dumps({"training_duration": "2:06:00"}))
    assert run_training_hours(tmp_path) == pytest.approx(2.1)


def test_the_card_says_what_the_shipped_student_learnt_from():
    gold = pretrained_parser.learnt_from({"distilled": False, "teacher": "none (gold only)"})
    assert gold.endswith("gold trees alone")
    hard = pretrained_parser.learnt_from({"distilled": True, "teacher": "1-best silver trees"})
    assert "MiniLM" in hard and hard.endswith("(1-best silver trees)")
