"""Peers trained for fewer epochs than the green models are shown for speed only, with the reason,
in the parser reports and in the committed tables (their scores stay in the JSON)."""

import json

from benchmarks.parser import ewt as parser_ewt
from benchmarks.reports import parser_distillation as report
from benchmarks.reports.peers import peer_note, speed_only
from tests.conftest import REPO_ROOT


def _models():
    return {
        "full": {
            "uas": 91.34,
            "las": 89.54,
            "params": 100,
            "epochs": 16,
            "peer": False,
            "cpu_tokens_per_s": {"32": 3000.0},
            "cpu_sentences_per_s": {"32": 250.0},
        },
        "D-20": {
            "uas": 90.42,
            "las": 88.4,
            "params": 20,
            "param_fraction": 0.2,
            "epochs": 12,
            "peer": False,
            "cpu_tokens_per_s": {"32": 9000.0},
            "cpu_sentences_per_s": {"32": 750.0},
        },
        "peer parser": {
            "uas": 82.56,
            "las": 79.17,
            "params": 99,
            "epochs": 2,
            "peer": True,
            "cpu_tokens_per_s": {"32": 1000.0},
            "cpu_sentences_per_s": {"32": 80.0},
        },
    }


def test_a_peer_row_keeps_its_speed_and_loses_its_scores():
    table = report.table("UD_X", {"test_sentences": 3, "test_tokens": 9, "models": _models()}, ["32"])
    peer_row = next(line for line in table.splitlines() if line.startswith("| peer parser"))
    assert peer_row.startswith("| peer parser (peer, 2 epochs: speed only) |  |  | 99 |")
    assert "1,000" in peer_row and "79.17" not in table and "82.56" not in table
    assert "trained for 2 epochs, the green models here for 12-16" in table
    assert "full vs peer parser tokens/s at batch 32: 3.00x" in table  # speed is still compared


def test_speed_only_drops_the_peers_scores_alone():
    rows = speed_only(_models(), ["uas", "las"])
    assert rows["full"] == _models()["full"]
    peer = rows["peer parser (peer, 2 epochs: speed only)"]
    assert "las" not in peer and "uas" not in peer and peer["cpu_tokens_per_s"] == {"32": 1000.0}
    assert peer_note({"full": _models()["full"]}) == []


def test_the_ewt_report_shows_its_peer_for_speed_only(tmp_path):
    results = {
        "test_sentences": 3,
        "test_tokens": 9,
        "batch_size": 32,
        "repeats": 1,
        "hardware": "a CPU",
        "models": {
            "green_nlp_gold_upos": {"uas": 91.0, "las": 89.0, "epochs": 16, "cpu_tokens_per_s": 2000.0},
            "allennlp_models_biaffine": {"uas": 82.56, "las": 79.17, "epochs": 2, "cpu_tokens_per_s": 900.0},
        },
    }
    parser_ewt.write_report(tmp_path, results)
    table = (tmp_path / "parser_ewt.md").read_text()
    assert "| allennlp_models_biaffine (peer, 2 epochs: speed only) |  |  |" in table and "79.17" not in table
    assert "trained for 2 epochs, the green models here for 16" in table
    assert "conll18_las" not in table  # no row has the CoNLL 2018 scores
    saved = json.loads((tmp_path / "parser_ewt.json").read_text())["models"]["allennlp_models_biaffine"]
    assert saved["las"] == 79.17 and "peer" not in saved


def test_the_committed_tables_show_no_peer_accuracy():
    for name in ("parser_ewt", "parser_distillation"):
        peer_rows = [
            line
            for line in (REPO_ROOT / "benchmarks" / "results" / f"{name}.md").read_text().splitlines()
            if line.startswith("|") and "(peer" in line
        ]
        assert peer_rows, f"{name}.md names no peer"
        for line in peer_rows:
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            assert cells[1] == cells[2] == "", line  # UAS and LAS left out
