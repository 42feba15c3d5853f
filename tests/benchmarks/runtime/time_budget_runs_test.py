"""The runs table: runs in number order, each CPU's range over the runs that measured a figure."""

import json
from pathlib import Path

from benchmarks.runtime.time_budget import SPACY_START
from benchmarks.runtime.time_budget_runs import NOT_RECORDED, runs_table, saved_runs, write


def _run(cpu: str, parse_ratio: float, gemm: float, **more: object) -> dict:
    return {
        "cpu": cpu,
        "gemm_gflops": {"onnxruntime_int8": gemm},
        "ratios_to_peers": {"parse vs spaCy en_core_web_sm": parse_ratio},
        "cold_starts": {"green-nlp parse en-ewt-parser": {"first_line_s": 2.0}},
        **more,
    }


def _save(folder: Path, runs: dict[str, dict]) -> None:
    for name, run in runs.items():
        (folder / name).write_text(json.dumps(run))


def test_runs_come_in_number_order_then_the_latest_and_other_files_are_not_runs(tmp_path: Path):
    _save(
        tmp_path,
        {
            "time_budget.json": _run("B", 1.0, 100),
            "time_budget.run10.json": _run("B", 1.1, 100),
            "time_budget.run2.json": _run("A", 2.0, 600),
            "time_budget_runs.json": {"runs": {}},
            "time_budget.run3.md.json": {},
        },
    )
    assert list(saved_runs(tmp_path)) == ["run2", "run10", "latest"]


def test_ranges_are_per_cpu_and_only_over_the_runs_that_measured_the_figure():
    numba = {
        "cold_starts": {
            "green-nlp parse en-ewt-parser": {"first_line_s": 1.5},
            SPACY_START: {"first_line_s": 1.25},
        },
        "whole_classify_processes": {
            "texts": {"green-nlp classify": 10_001, "green-nlp classify --engine numba": 10_001},
            "seconds": {"green-nlp classify": 1.3, "green-nlp classify --engine numba": 1.9},
            "start_seconds": {"green-nlp classify": 0.5, "green-nlp classify --engine numba": 1.6},
            # the figures come from the fastest runs: 0.4 + 10,000 x 80 us, 1.4 + 10,000 x 50 us
            "runs": {
                "green-nlp classify (all)": [1.3, 1.2, 2.0],
                "green-nlp classify (one)": [0.5, 0.4, 0.6],
                "green-nlp classify --engine numba (all)": [1.9, 2.5, 2.2],
                "green-nlp classify --engine numba (one)": [1.6, 1.4, 1.5],
            },
            "us_per_text_after_start": {"green-nlp classify --engine numba": 9.9},  # a median-based figure, not read
        },
    }
    runs = {
        "run1": _run("EPYC", 2.2, 608),
        "run2": _run("Xeon", 0.97, 96),
        "run3": _run("Xeon", 1.37, 164, **numba),
        "latest": _run("Xeon", 1.05, 120),
    }
    rows, ranges = runs_table(runs)
    # 1.0 s more start paid back at 30 us a text: 33,334 lines
    assert rows["run2"]["numba break-even lines"] == "" and rows["run3"]["numba break-even lines"] == "33,000"
    assert rows["run3"]["spaCy's start s"] == "1.25" and rows["run3"]["us a text after start: numba"] == "50"
    assert rows["run3"]["us a text after start: classify"] == "80" and rows["run3"]["whole classify lines"] == "10,001"
    xeon = ranges[f"Xeon, {NOT_RECORDED}: range over 3 runs"]
    assert xeon["parse / spaCy"] == "0.97-1.37" and xeon["int8 GEMM GFLOP/s"] == "96-164"
    assert xeon["parse start s"] == "1.50-2.00"  # the run with its own parse start counts
    assert xeon["spaCy's start s"] == "1.25" and xeon["spaCy's start s runs"] == 1  # one run measured it
    assert ranges[f"EPYC, {NOT_RECORDED}: range over 1 run"]["parse / spaCy"] == "2.20"
    assert "numba start s" not in xeon  # no run measured it


def test_the_floor_column_is_what_the_runs_model_could_reach_from_its_saved_rows():
    rows = {
        "parse model": {"us_per_token": 6.0, "limit_us_per_token": 3.0},
        "parse end-to-end": {"us_per_token": 10.0},
    }
    spacy = {"tokens": 1000, "seconds": 0.016}  # 16 µs a token: the floor, 3 + 4 µs, allows 16 / 7
    table, _ = runs_table({"run1": _run("X", 1.6, 100, rows=rows, spacy=spacy), "latest": _run("X", 1.6, 100)})
    assert table["run1"]["parse / spaCy at the model's floor"] == "2.29"
    assert table["latest"]["parse / spaCy at the model's floor"] == ""  # no rows saved: blank


def test_runs_group_by_the_recorded_cpu_kind_and_older_runs_say_theirs_was_not_recorded():
    zen3 = "AMD EPYC, family 25 model 1, int8: AVX2 without VNNI"
    runs = {
        "run1": _run("AMD EPYC", 2.0, 400),
        "run2": _run("AMD EPYC", 1.4, 180, cpu_kind=zen3),
        "latest": _run("AMD EPYC", 1.5, 190, cpu_kind=zen3),
    }
    rows, ranges = runs_table(runs)
    assert rows["run1"]["cpu"] == f"AMD EPYC, {NOT_RECORDED}" and rows["latest"]["cpu"] == zen3
    assert ranges[f"{zen3}: range over 2 runs"]["parse / spaCy"] == "1.40-1.50"
    assert ranges[f"AMD EPYC, {NOT_RECORDED}: range over 1 run"]["parse / spaCy"] == "2.00"


def test_write_saves_json_and_a_table_with_a_row_per_run_and_per_cpu(tmp_path: Path):
    _save(tmp_path, {"time_budget.json": _run("Xeon", 1.0, 100), "time_budget.run1.json": _run("Xeon", 1.2, 90)})
    write(tmp_path)
    table = (tmp_path / "time_budget_runs.md").read_text()
    xeon = f"Xeon, {NOT_RECORDED}"
    assert f"| run1 | {xeon} | 90 | 1.20 |" in table and f"| latest | {xeon} | 100 | 1.00 |" in table
    assert f"| {xeon}: range over 2 runs | {xeon} | 90-100 | 1.00-1.20 |" in table
    assert json.loads((tmp_path / "time_budget_runs.json").read_text())["ranges"]


def test_the_committed_runs_table_matches_the_saved_runs(tmp_path: Path):
    """A run saved without regenerating the table (or a table edited by hand) fails here."""
    from benchmarks.common import RESULTS

    for path in RESULTS.glob("time_budget*.json"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    write(tmp_path)
    assert (tmp_path / "time_budget_runs.md").read_text() == (RESULTS / "time_budget_runs.md").read_text()
