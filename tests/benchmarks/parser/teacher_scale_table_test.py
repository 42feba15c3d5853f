"""benchmarks.parser.teacher_scale_table: issue 42's one table. The table builder (rows in order, seed
means, '-' where not measured), the selection rule (best dev LAS within the folder budget), the
teacher's row from its run folder, and one real run on the fixture treebank (a fixture student and the
shipped parser through the runtime) into a scratch output."""

import json
import shutil
import sys

import pytest

from benchmarks.parser import teacher_scale_table as table
from tests.benchmarks.helpers import fixture_treebank
from tests.conftest import FIXTURES


def row(dev_las=80.0, test_las=82.0, folder_mb=9.0, **values):
    out = table.empty_row()
    out.update(
        silver_sentences=0,
        parameters=3_000_000,
        dev_las=dev_las,
        test_uas=85.0,
        test_las=test_las,
        raw_las=80.0,
        raw_upos=93.0,
        raw_speed_ratio=1.0,
        tokens_speed_ratio=1.0,
        folder_mb=folder_mb,
    )
    out.update(values)
    return out


# ------------------------------------------------------------------------------------------ selection
def test_the_candidate_is_the_student_with_the_best_dev_las_not_the_best_test_las():
    rows = {"B-20": row(83.0, 84.0), "D-20 soft 20k": row(83.4, 83.0), "D-20 soft 49k": row(83.2, 85.0)}
    assert table.choose(rows, list(rows)) == "D-20 soft 20k"


def test_a_student_over_the_folder_budget_is_never_the_candidate():
    rows = {"B-20": row(80.0), "D-20 soft 49k": row(90.0, folder_mb=12.01)}
    assert table.choose(rows, list(rows)) == "B-20"
    assert table.choose({"big": row(90.0, folder_mb=13.0)}, ["big"]) is None


def test_seed_mean_rows_are_candidates_only_through_their_runs():
    rows = {"B-20": row(80.0), "B-20, seed 2": row(81.0)}
    assert table.choose(rows, list(rows)) == "B-20, seed 2"


# ----------------------------------------------------------------------------------------- the table
def test_seed_copies_and_their_mean_follow_their_run_and_the_shipped_model_comes_last():
    students = {
        "B-20": row(80.0, 82.0),
        "D-20 soft 49k": row(82.0, 84.0, raw_lemmas=95.0),
        "B-20, seed 2": row(81.0, 83.0),
        "D-20 soft 49k, seed 2": row(83.0, 85.0),  # no LEMMA figure: the mean has none either
        "other, seed 3": row(),  # a seed of a label that has no row of its own stays a plain row
    }
    rows = table.ordered(row(90.0), students, row(79.0))
    assert list(rows) == [
        table.TEACHER_LABEL,
        "B-20",
        "B-20, seed 2",
        "B-20, mean of 2 seeds",
        "D-20 soft 49k",
        "D-20 soft 49k, seed 2",
        "D-20 soft 49k, mean of 2 seeds",
        "other, seed 3",
        table.SHIPPED_LABEL,
    ]
    mean = rows["D-20 soft 49k, mean of 2 seeds"]
    assert mean["dev_las"] == pytest.approx(82.5) and mean["test_las"] == pytest.approx(84.5)
    assert mean["raw_lemmas"] is None and mean["parameters"] == 3_000_000


def test_the_aims_are_measured_against_the_seed_means_where_there_are_seeds():
    rows = table.ordered(
        None,
        {
            "B-20": row(test_las=82.0),
            "B-20, seed 2": row(test_las=83.0),
            "self-training (hard, 49k)": row(test_las=83.0),
            "D-20 soft 49k": row(test_las=84.5),
        },
        row(),
    )
    lines = table.comparisons(rows, "D-20 soft 49k")
    assert lines[0] == (
        "D-20 soft 49k: test LAS +2.00 vs B-20, mean of 2 seeds (aim +1.5), "
        "+1.50 vs self-training (hard, 49k) (aim > 0)"
    )
    assert lines[1].startswith("shipped candidate D-20 soft 49k: raw LAS 80.00 (aim 83.5)")
    assert table.comparisons(rows, "D-20 soft 49k", "shipped")[1].startswith("shipped D-20 soft 49k: raw LAS")


def test_markdown_rows_show_a_dash_where_nothing_was_measured_and_mark_the_candidate():
    rows = {table.TEACHER_LABEL: row(raw_las=None), "B-20": row(raw_tokens_per_s=29_631.7, raw_speed_ratio=0.8761)}
    shown = table.markdown_rows(rows, "B-20")
    assert list(shown) == [table.TEACHER_LABEL, "**B-20** (candidate)"]
    assert shown[table.TEACHER_LABEL]["raw LAS"] == "-" and shown[table.TEACHER_LABEL]["raw LEMMA"] == "-"
    assert shown["**B-20** (candidate)"]["dev LAS"] == 80.0
    assert shown["**B-20** (candidate)"]["tok/s raw"] == 29_632
    assert shown["**B-20** (candidate)"]["x previous (raw)"] == "0.88"
    assert list(shown["**B-20** (candidate)"]) == list(table.COLUMNS.values())
    assert "**B-20** (shipped)" in table.markdown_rows(rows, "B-20", "shipped")


# ------------------------------------------------------------------------------------- the inputs
@pytest.mark.parametrize(
    ("reader", "expected"),
    [
        ({"silver_sentences": 0, "silver_targets": "soft"}, (0, "none")),
        ({"silver_sentences": 49000, "silver_targets": "hard"}, (49000, "hard")),
        ({"silver_sentences": 20000, "silver_targets": "soft"}, (20000, "soft")),
        ({"type": "green_conllu_dependencies"}, (0, "none")),
    ],
)
def test_silver_setting_of_a_training_config(reader, expected):
    assert table.silver_setting({"dataset_reader": reader}) == expected


def _teacher_run(tmp_path, log="x\nallennlp.training.optimizers - Number of trainable parameters: 27309457\n"):
    run = tmp_path / "teacher"
    run.mkdir()
    (run / "evaluate_dev.json").write_text(json.dumps({"UAS": 0.92, "LAS": 0.898, "upos_accuracy": 0.97}))
    (run / "evaluate_test.json").write_text(json.dumps({"UAS": 0.9252, "LAS": 0.9028, "upos_accuracy": 0.9729}))
    (run / "out.log").write_text(log)
    return run


def test_the_teacher_row_holds_its_gold_token_evaluation_and_dashes_for_the_runtime_columns(tmp_path):
    teacher, details = table.teacher_row(_teacher_run(tmp_path))
    assert teacher["dev_las"] == pytest.approx(89.8) and teacher["test_las"] == pytest.approx(90.28)
    assert teacher["test_uas"] == pytest.approx(92.52) and teacher["parameters"] == 27_309_457
    assert teacher["raw_las"] is None and teacher["raw_tokens_per_s"] is None and teacher["folder_mb"] is None
    assert details["evaluate"]["test"]["upos_accuracy"] == 0.9729 and "train_seconds" not in details


def test_the_teacher_details_keep_its_training_time_where_the_run_has_it(tmp_path):
    run = _teacher_run(tmp_path)
    (run / "train_seconds.json").write_text(json.dumps({"teacher_train_seconds": 196}))
    _, details = table.teacher_row(run)
    assert details["train_seconds"] == {"teacher_train_seconds": 196} and "metrics" not in details


def test_a_teacher_run_without_its_evaluation_is_named(tmp_path):
    run = _teacher_run(tmp_path)
    (run / "evaluate_test.json").unlink()
    with pytest.raises(SystemExit, match="evaluate_test.json"):
        table.teacher_row(run)


def test_a_training_log_without_the_count_gives_none(tmp_path):
    teacher, _ = table.teacher_row(_teacher_run(tmp_path, log="no count here\n"))
    assert teacher["parameters"] is None


def test_default_archives_find_the_four_runs_and_their_seed_copies(tmp_path):
    for run in [*table.STUDENTS.values(), "silver_b20_seed2", "silver_b20_seedling"]:
        (tmp_path / run).mkdir()
        (tmp_path / run / "model.tar.gz").write_bytes(b"")
    archives = table.default_archives(tmp_path)
    assert list(archives) == [
        "B-20",
        "B-20, seed 2",
        "self-training (hard, 49k)",
        "D-20 soft 20k",
        "D-20 soft 49k",
    ]
    assert archives["B-20, seed 2"] == tmp_path / "silver_b20_seed2" / "model.tar.gz"
    (tmp_path / "silver_d20_small" / "model.tar.gz").unlink()
    with pytest.raises(SystemExit, match="silver_d20_small"):
        table.default_archives(tmp_path)


def test_the_shipped_parameters_come_only_from_results_of_the_same_archive(tmp_path):
    (tmp_path / "green_model.json").write_text(json.dumps({"source_archive_sha256": "abc"}))
    assert table.shipped_parameters(tmp_path, {"archive_sha256": "abc", "parameters": 7}) == 7
    assert table.shipped_parameters(tmp_path, {"archive_sha256": "other", "parameters": 7}) is None
    assert table.shipped_parameters(tmp_path, None) is None


def test_the_released_folder_comes_from_git_with_its_recipe_results(tmp_path):
    folder, figures = table.released_folder(table.PREVIOUS_RELEASE, tmp_path / "released")
    assert {"green_model.json", "model.int8.onnx", "README.md"} <= {path.name for path in folder.iterdir()}
    assert table.shipped_parameters(folder, figures) == 3_131_534  # the card's D-20 of that release


def test_a_commit_without_the_shipped_folder_is_named(tmp_path):
    first = table.git_bytes("rev-list", "--max-parents=0", "HEAD").decode().split()[0]
    with pytest.raises(SystemExit, match=f"no pretrained/en-ewt-parser/ at commit {first}"):
        table.released_folder(first, tmp_path / "none")


# ----------------------------------------------------------------------------- one real run
def test_a_run_on_fixtures_scores_a_student_and_the_shipped_parser(tmp_path, monkeypatch, quickstart_archive):
    treebank = fixture_treebank(tmp_path, monkeypatch, "UD_English-EWT", "en_ewt")
    shutil.copy(FIXTURES / "ud" / "synthetic-tokenization.conllu", treebank / "en_ewt-ud-train.conllu")
    teacher = _teacher_run(tmp_path)
    argv = ["teacher_scale_table", "--archives", f"B-20={quickstart_archive}", "--teacher-run", str(teacher)]
    argv += ["--work-dir", str(tmp_path / "work"), "--repeats", "1"]
    monkeypatch.setattr(sys, "argv", argv)
    table.main()
    results = json.loads((tmp_path / "work" / "results" / f"{table.NAME}.json").read_text())
    rows = results["rows"]
    assert list(rows) == [table.TEACHER_LABEL, "B-20", table.SHIPPED_LABEL]
    student, shipped = rows["B-20"], rows[table.SHIPPED_LABEL]
    assert results["chosen"] == "B-20" and results["students"]["B-20"]["mode"] == "none"
    for measured in (student, shipped):
        assert 0.0 < measured["test_las"] <= measured["test_uas"] <= 100.0
        assert 0.0 < measured["raw_las"] <= 100.0 and measured["raw_tokens_per_s"] > 0
        assert measured["raw_lemmas"] is None and measured["raw_mlas"] is None  # neither has the heads
    assert shipped["raw_speed_ratio"] == 1.0 and shipped["tokens_speed_ratio"] == 1.0
    assert student["tokens_speed_ratio"] == pytest.approx(
        student["tokens_tokens_per_s"] / shipped["tokens_tokens_per_s"]
    )
    folder = tmp_path / "work" / "student_0"
    # the int8 graphs (main and character encoder), the metadata and the rules learned from train
    shipped_files = ("model.int8.onnx", "chars.int8.onnx", "green_model.json", "tokenizer_rules.json")
    assert student["folder_mb"] * 1e6 == sum((folder / name).stat().st_size for name in shipped_files)
    assert results["tokenizer_rules"]["source"] == "en_ewt-ud-train.conllu"
    markdown = (tmp_path / "work" / "results" / f"{table.NAME}.md").read_text()
    assert "| **B-20** (candidate) |" in markdown and "Best dev LAS within 12 MB: B-20." in markdown
    assert f"the tokens/s of en-ewt-parser as released at commit {table.PREVIOUS_RELEASE[:7]}" in markdown
    assert "now ships: none of these students" in markdown
    assert "by rules learned from en_ewt-ud-train.conllu" in markdown


def test_longer_runs_are_rows_of_their_own_compared_among_themselves(tmp_path):
    for run in [*table.STUDENTS.values(), "silver_d20_large_e20", "silver_st20_large_e20", "silver_b20_extra"]:
        (tmp_path / run).mkdir()
        (tmp_path / run / "model.tar.gz").write_bytes(b"")
    archives = table.default_archives(tmp_path)
    assert list(archives)[-3:] == ["D-20 soft 20k", "D-20 soft 49k", "D-20 soft 49k, 20 epochs"]
    assert "self-training (hard, 49k), 20 epochs" in archives and len(archives) == 6
    rows = table.ordered(
        None,
        {
            "B-20": row(test_las=82.0),
            "self-training (hard, 49k)": row(test_las=83.0),
            "self-training (hard, 49k), 20 epochs": row(test_las=84.0),
            "D-20 soft 49k": row(test_las=83.5),
            "D-20 soft 49k, 20 epochs": row(test_las=84.25),
        },
        row(),
    )
    lines = table.comparisons(rows, None)
    assert lines == [
        "D-20 soft 49k: test LAS +1.50 vs B-20 (aim +1.5), +0.50 vs self-training (hard, 49k) (aim > 0)",
        "D-20 soft 49k, 20 epochs: test LAS +0.25 vs self-training (hard, 49k), 20 epochs (aim > 0)",
    ]


def test_seed_copies_of_longer_runs_are_found_and_compared_as_means(tmp_path):
    runs = [*table.STUDENTS.values(), "silver_d20_large_e20", "silver_d20_large_seed2_e20", "silver_d20_large_seed2"]
    for run in [*runs, "silver_st20_large_e20", "silver_st20_large_seed2_e20", "silver_d20_large_seedx_e20"]:
        (tmp_path / run).mkdir()
        (tmp_path / run / "model.tar.gz").write_bytes(b"")
    archives = table.default_archives(tmp_path)
    assert list(archives)[-4:] == [
        "D-20 soft 49k",
        "D-20 soft 49k, seed 2",
        "D-20 soft 49k, 20 epochs",
        "D-20 soft 49k, 20 epochs, seed 2",
    ]
    assert archives["D-20 soft 49k, 20 epochs, seed 2"] == tmp_path / "silver_d20_large_seed2_e20" / "model.tar.gz"
    assert "self-training (hard, 49k), 20 epochs, seed 2" in archives and len(archives) == 9
    rows = table.ordered(
        None,
        {
            "self-training (hard, 49k), 20 epochs": row(test_las=84.0),
            "self-training (hard, 49k), 20 epochs, seed 2": row(test_las=85.0),
            "D-20 soft 49k, 20 epochs": row(test_las=85.0),
            "D-20 soft 49k, 20 epochs, seed 2": row(test_las=85.5),
        },
        row(),
    )
    assert "D-20 soft 49k, 20 epochs, mean of 2 seeds" in rows
    assert table.comparisons(rows, None) == [
        "D-20 soft 49k, 20 epochs, mean of 2 seeds: test LAS +0.75 vs self-training (hard, 49k), 20 epochs, "
        "mean of 2 seeds (aim > 0)"
    ]
