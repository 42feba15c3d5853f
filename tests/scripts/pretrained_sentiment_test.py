"""The sentiment recipe's card sections (scripts/pretrained_sentiment.py): the training cost from the CPU
ledger, and the comparison with the release it replaces."""

import sys

from tests.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "scripts"))
sys.path.insert(0, str(REPO_ROOT))
from pretrained_sentiment import IMDB_SENTENCES, previous_release_rows, training_cost_rows  # noqa: E402

from benchmarks.reports.energy import WATTS_PER_CPU  # noqa: E402


def test_each_step_is_shown_in_cpu_hours_and_watt_hours_with_a_total():
    rows = training_cost_rows({"training_cpu_seconds": {"teacher": 3600.0, "labelling IMDB sentences": 1800.0}})
    assert f"| teacher training (MiniLM-L6, one epoch) | 1.00 | {WATTS_PER_CPU:.1f} Wh |" in rows
    assert f"| labelling IMDB sentences | 0.50 | {0.5 * WATTS_PER_CPU:.1f} Wh |" in rows
    assert f"| **all steps** | **1.50** | **{1.5 * WATTS_PER_CPU:.1f} Wh** |" in rows


def test_a_build_without_a_ledger_says_so_instead_of_showing_zero():
    (line,) = training_cost_rows({})
    assert line.startswith("Not recorded")


def test_the_previous_release_sits_beside_the_new_model():
    figures = {
        "shipped_precision": "int8",
        "runtime": {"int8": {"test_accuracy": 84.0, "dev_accuracy": 85.0}},
        "texts_per_s_1_thread": {"batch 1": 10000.0, "batch 32": 40000.0},
        "folder_bytes": 4_900_000,
        "previous_release": {
            "commit": "a5299d2866ef83b4e61ad74c34825856b0f9987a",
            "imdb_sentences": 60000,
            "test_accuracy": 83.14,
            "dev_accuracy": 84.29,
            "texts_per_s_1_thread": {"batch 1": 9000.0, "batch 32": 38000.0},
            "folder_bytes": 4_800_000,
        },
    }
    rows = previous_release_rows(figures)
    assert rows[0] == "| int8 runtime, measured in one run | this model | previous release (a5299d2) |"
    assert f"| IMDB sentences labelled by the teacher | {IMDB_SENTENCES:,} | 60,000 |" in rows
    assert "| SST-2 test accuracy | 84.00 | 83.14 |" in rows
    assert "| texts/s, 1 thread, batch 32 | 40,000 | 38,000 |" in rows
    assert "| folder (without the card) | 4.9 MB | 4.8 MB |" in rows


def test_a_retrained_dan_is_not_swept_through_the_archives_of_the_one_before(tmp_path):
    import os
    import shutil

    from pretrained_sentiment import Candidate, compressed_archive

    from tests.dan_helpers import tiny_dan_run

    dan = tmp_path / "dan" / "model.tar.gz"
    dan.parent.mkdir()
    shutil.copy(tiny_dan_run() / "model.tar.gz", dan)
    candidate = Candidate(keep=None, ranking=None, rank=2)
    first = compressed_archive(dan, candidate, tmp_path)
    assert first.parent == dan.parent / "compressed"
    made = first.stat().st_mtime_ns
    assert compressed_archive(dan, candidate, tmp_path).stat().st_mtime_ns == made  # made once
    before = dan.stat().st_mtime_ns - 10**10
    os.utime(first, ns=(before, before))  # as if the DAN was retrained after its archives were made
    assert compressed_archive(dan, candidate, tmp_path).stat().st_mtime_ns >= dan.stat().st_mtime_ns


def candidate(dev: float, megabytes: float) -> dict:
    return {"dev_accuracy_int8": dev, "folder_bytes_int8_only": int(megabytes * 1e6)}


def test_the_smallest_candidate_within_the_dev_margin_of_the_best_ships():
    from pretrained_sentiment import TIE_ACCURACY, choose

    sweep = {
        "vocabulary 35,000": candidate(84.75, 7.4),
        "all n-grams, rank 8": candidate(84.75 - TIE_ACCURACY + 0.01, 4.3),
        "vocabulary 100,000, rank 8": candidate(84.75 - TIE_ACCURACY - 0.01, 2.0),  # outside the margin
        "vocabulary 100,000": candidate(90.0, 21.3),  # over the budget
    }
    assert choose(sweep) == "all n-grams, rank 8"
    del sweep["all n-grams, rank 8"]
    assert choose(sweep) == "vocabulary 35,000"
