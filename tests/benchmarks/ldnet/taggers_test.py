"""benchmarks.ldnet.taggers' seed summary reads each tagger's own test F1 from its metrics.json and
only averages seeds that have both a NoLM and an origin run."""

import json
from pathlib import Path

import pytest

from benchmarks.ldnet import taggers as ldnet


def _run(root: Path, folder: str, variant: str, f1: float) -> None:
    run = root / folder / variant
    run.mkdir(parents=True)
    (run / "metrics.json").write_text(json.dumps({"test_f1-measure-overall": f1}))


def test_seed_summary_averages_the_gain_over_complete_seeds(tmp_path, monkeypatch):
    monkeypatch.setattr(ldnet, "RUNS", tmp_path)
    _run(tmp_path, "conll2003", "nolm", 0.8800)
    _run(tmp_path, "conll2003", "origin", 0.8850)
    _run(tmp_path, "conll2003_seed2", "nolm", 0.8900)
    _run(tmp_path, "conll2003_seed2", "origin", 0.8980)
    summary = ldnet.seed_summary("conll2003")
    assert summary["seeds"]["1"] == {"nolm": 88.0, "origin": 88.5, "gain": 0.5, "origin_without_lm_dropout": None}
    assert summary["mean_gain"] == pytest.approx(0.65)
    assert "mean_gain_without_lm_dropout" not in summary  # no earlier runs kept for these seeds
    assert "mean LM gain +0.65 F1" in ldnet.seeds_text("conll2003", summary)


def test_seed_summary_skips_a_seed_without_both_runs_and_reports_earlier_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(ldnet, "RUNS", tmp_path)
    _run(tmp_path, "conll2003", "nolm", 0.8800)
    _run(tmp_path, "conll2003", "origin", 0.8900)
    _run(tmp_path, "conll2003_seed2", "nolm", 0.8900)  # its origin never finished
    _run(tmp_path, ldnet.WITHOUT_LM_DROPOUT + "/conll2003", "origin", 0.8830)
    summary = ldnet.seed_summary("conll2003")
    assert list(summary["seeds"]) == ["1"]
    assert summary["mean_gain"] == pytest.approx(1.0)
    assert summary["mean_gain_without_lm_dropout"] == pytest.approx(0.3)
    assert ldnet.seed_summary("wnut17") == {}
