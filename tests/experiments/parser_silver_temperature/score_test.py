"""experiments/parser_silver_temperature/score.py reads each finished run by its seed from the folder
name, in percent, keeps the longer runs (`_e<N>`) out of the 10-epoch rows, and finds every temperature."""

import json

from experiments.parser_silver_temperature.score import seed_scores, temperature_runs


def finished(folder, dev: float, test: float) -> None:
    folder.mkdir(parents=True)
    (folder / "model.tar.gz").write_bytes(b"archive")
    (folder / "metrics.json").write_text(json.dumps({"best_validation_LAS": dev, "test_LAS": test}))


def test_seed_copies_are_read_and_longer_or_unfinished_runs_left_out(tmp_path):
    finished(tmp_path / "silver_d20_large", 0.84, 0.845)
    finished(tmp_path / "silver_d20_large_seed2", 0.83, 0.84)
    finished(tmp_path / "silver_d20_large_seed2_e20", 0.86, 0.86)  # another budget
    (tmp_path / "silver_d20_large_seed3").mkdir()  # started, never finished
    scores = seed_scores(tmp_path, "silver_d20_large")
    assert sorted(scores) == [1, 2]
    assert abs(scores[2]["test"] - 84.0) < 1e-9 and abs(scores[1]["dev"] - 84.0) < 1e-9


def test_temperatures_are_found_by_their_seed_one_folder(tmp_path):
    finished(tmp_path / "silver_d20_large_t2", 0.84, 0.85)
    finished(tmp_path / "silver_d20_large_t2_seed2", 0.84, 0.85)
    finished(tmp_path / "silver_d20_large_t0.5", 0.84, 0.85)
    (tmp_path / "silver_d20_large_t2.log").write_text("")
    assert temperature_runs(tmp_path) == {
        "D-20 soft 49k, T = 0.5": "silver_d20_large_t0.5",
        "D-20 soft 49k, T = 2": "silver_d20_large_t2",
    }
