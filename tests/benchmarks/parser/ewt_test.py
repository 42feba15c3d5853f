"""benchmarks.parser.ewt --keep-missing keeps an absent run's earlier row, marked, and never
uses it in a speed ratio."""

import json
import shutil
import sys

from benchmarks.parser import ewt as parser_ewt
from tests.benchmarks.helpers import fixture_treebank


def test_keep_missing_carries_the_earlier_row_out_of_the_ratios(quickstart_archive, tmp_path, monkeypatch):
    fixture_treebank(tmp_path, monkeypatch, "UD_English-EWT", "en_ewt")
    runs, out = tmp_path / "runs", tmp_path / "results"
    shutil.copytree(quickstart_archive.parent, runs / "ewt_gold_upos")  # a whole finished run
    out.mkdir()
    earlier = {
        "green_nlp_raw_text": {"uas": 1.0, "las": 0.5, "cpu_tokens_per_s": 7.0},
        "allennlp_models_biaffine": {"uas": 2.0, "las": 1.5, "cpu_tokens_per_s": 3.0},
    }
    (out / "parser_ewt.json").write_text(json.dumps({"models": earlier}))

    argv = ["benchmarks.parser.ewt", "--runs", str(runs), "--out", str(out), "--repeats", "1", "--keep-missing"]
    monkeypatch.setattr(sys, "argv", argv)
    parser_ewt.main()

    rows = json.loads((out / "parser_ewt.json").read_text())["models"]
    assert rows["green_nlp_gold_upos"].get("carried_from_earlier_run") is None
    for key, row in earlier.items():
        assert rows[key] == {**row, "carried_from_earlier_run": True}
    # the peer was not timed in this run, so no speed ratio against it
    assert "speedup_vs_allennlp_models" not in rows["green_nlp_gold_upos"]
    assert "was measured in an earlier run" in (out / "parser_ewt.md").read_text()
