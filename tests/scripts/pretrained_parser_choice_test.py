"""The shipped parser's choice from the accuracy-speed front (scripts/pretrained_parser.py): the
smallest distilled student as accurate on dev as the baseline trained without a teacher (within a
tie margin), within the size budget, else the most accurate distilled one."""

import sys

import pytest

from tests.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "scripts"))
from pretrained_common import FOLDER_BUDGET_BYTES  # noqa: E402
from pretrained_parser import SHIPPED, TIE_LAS, choose  # noqa: E402


def row(distilled: bool, parameters: int, dev_las: float, folder_bytes: int = 8_000_000) -> dict:
    return {
        "distilled": distilled,
        "parameters": parameters,
        "dev_int8": {"LAS": dev_las},
        "int8_folder_bytes": folder_bytes,
    }


def test_the_smallest_distilled_student_that_matches_the_baseline_ships():
    front = {
        "B-20": row(False, 3_000_000, 83.5),
        "D-20": row(True, 3_000_000, 82.7),  # below the baseline: not a replacement
        "D-20 + dropout": row(True, 3_000_000, 83.6),
        "D-40": row(True, 5_500_000, 83.9),  # more accurate, but twice the cost
    }
    assert choose(front) == "D-20 + dropout"


def test_a_tie_with_the_baseline_counts_as_a_match_and_a_loss_does_not():
    front = {"B-20": row(False, 3, 83.48), "D-20": row(True, 3, 83.48 - TIE_LAS / 2), "D-40": row(True, 5, 84.0)}
    assert choose(front) == "D-20"
    front["D-20"] = row(True, 3, 83.48 - 2 * TIE_LAS)
    assert choose(front) == "D-40"


def test_equal_sizes_are_split_by_dev_accuracy():
    front = {"B-20": row(False, 3, 80.0), "a": row(True, 3, 80.5), "b": row(True, 3, 81.0)}
    assert choose(front) == "b"


def test_with_no_student_as_good_as_the_baseline_the_most_accurate_distilled_one_ships():
    front = {"B-20": row(False, 3, 84.0), "D-20": row(True, 3, 82.0), "D-40": row(True, 5, 83.0)}
    assert choose(front) == "D-40"


def test_a_student_over_the_budget_is_never_chosen():
    front = {
        "B-20": row(False, 3, 80.0),
        "D-80": row(True, 9, 85.0, FOLDER_BUDGET_BYTES + 1),
        "D-20": row(True, 3, 79.0),
    }
    assert choose(front) == "D-20"
    with pytest.raises(SystemExit, match="budget"):
        choose({"B-20": row(False, 3, 80.0), "D-80": row(True, 9, 85.0, FOLDER_BUDGET_BYTES + 1)})


def test_the_recipe_lists_a_baseline_first_and_distilled_students_of_the_raw_text_config():
    students = SHIPPED["en-ewt-parser"].students
    assert not students[0].distilled
    assert all(s.distilled and s.config.endswith("ud_ewt_raw_text_student.jsonnet") for s in students[1:])
    assert len({s.run for s in students}) == len(students)  # each its own run folder
