"""experiments/dan_word_vectors/score.py pairs each GloVe-started DAN run with the randomly started run of the
same seed, and leaves out a pair whose second run never finished."""

import json

from experiments.dan_word_vectors.score import compare


def test_word_vector_comparison_pairs_runs_by_seed_and_skips_unfinished_ones(tmp_path):
    for run, dev, test in (
        ("a_s1", 0.80, 0.85),
        ("g_s1", 0.82, 0.84),
        ("a_s2", 0.70, 0.75),
        ("g_s2", 0.76, 0.80),
        ("a_s3", 0.5, 0.5),
    ):
        (tmp_path / "dan" / run).mkdir(parents=True)
        (tmp_path / "dan" / run / "metrics.json").write_text(
            json.dumps({"best_validation_accuracy": dev, "test_accuracy": test})
        )
    row = compare(tmp_path, [("a_s1", "g_s1"), ("a_s2", "g_s2"), ("a_s3", "g_s3")])
    assert row["pairs"] == 2  # g_s3 never finished
    assert abs(row["dev_difference"] - 4.0) < 1e-9 and abs(row["test_difference"] - 2.0) < 1e-9
    assert abs(row["test_random_start"] - 80.0) < 1e-9
    assert compare(tmp_path, [("a_s3", "g_s3")]) is None
