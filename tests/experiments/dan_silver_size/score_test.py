"""experiments/dan_silver_size/score.py reads each finished run by its silver size and seed from the
folder name, in percent, and leaves out runs that never finished."""

import json

from experiments.dan_silver_size.score import seed_runs


def test_runs_are_grouped_by_silver_size_and_seed_and_unfinished_ones_left_out(tmp_path):
    root = tmp_path / "pretrained" / "en-sst2-sentiment" / "silver_size"
    for run, dev, test in (
        ("imdb60000_sdefault", 0.83, 0.82),
        ("imdb60000_s2", 0.84, 0.83),
        ("imdb150000_s2", 0.8, 0.85),
    ):
        (root / run).mkdir(parents=True)
        (root / run / "metrics.json").write_text(json.dumps({"best_validation_accuracy": dev, "test_accuracy": test}))
    (root / "imdb150000_s3").mkdir()  # started, never finished
    (root / "imdb150000").mkdir()  # the caches' folder, not a run
    scores = seed_runs(tmp_path)
    assert sorted(scores) == [60000, 150000]
    assert sorted(scores[60000]) == ["2", "default"]
    assert list(scores[150000]) == ["2"]
    assert abs(scores[150000]["2"]["test"] - 85.0) < 1e-9 and abs(scores[60000]["default"]["dev"] - 83.0) < 1e-9
