"""benchmarks.serve.load: its load clients against a real server, and its verdicts on the aims."""

import asyncio
import json

import pytest

from benchmarks.serve import load as bench
from green_nlp.serve.launcher import ServerProcess
from tests.serve.conftest import CLASSIFIER, LIMITS, dan_folder  # noqa: F401  (dan_folder: a fixture)


@pytest.fixture(scope="module")
def server(dan_folder):  # noqa: F811
    """The fixture DAN alone behind `green-nlp serve`, with the serving tests' small limits."""
    with ServerProcess([dan_folder], LIMITS) as running:
        yield running


def test_load_clients_count_answers_and_errors(server):
    texts = ["a witty film", "dull", "x" * 5000]  # the last is over the test server's 3,000 characters
    row = asyncio.run(bench.load_level(server.url, f"/v1/{CLASSIFIER}/classify", texts, 3, 0.5, server.pid))
    assert row["requests"] > 0 and set(row["statuses"]) <= {"200", "422"}
    assert row["errors"] == row["statuses"].get("422", 0) > 0 and row["5xx"] == 0
    assert row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"] and row["server_cpu_ms_per_request"] >= 0


def level(clients, rate, p99, cpu):
    return {
        "clients": clients,
        "requests_per_s": rate,
        "p50_ms": p99 / 2,
        "p95_ms": p99,
        "p99_ms": p99,
        "mean_batch": 1.0,
        "errors": 0,
        "5xx": 0,
        "server_cpu_ms_per_request": cpu,
        "client_cpu_ms_per_request": 0.5,
        "rss_mb_after": 100.0,
    }


def test_the_report_judges_the_aims_from_the_measured_rows(tmp_path):
    run = {"rss_mb_start": 100.0, "rss_mb_end": 101.0}
    results = {
        "machine": "test",
        "load_average_before": [1.0],
        "load_average_after": [1.0],
        "setup": {"server": "s", "client": "c", "request": "r", "seconds_per_level": 1, "rounds": 2},
        "texts": {bench.PARSER: "p", "classifier": "c"},
        "classifier": "fixture",
        "models": {
            "fast": {
                "micro-batching": {**run, "levels": [level(1, 10, 20, 2), level(32, 100, 200, 0.5)]},
                "batch 1": {**run, "levels": [level(1, 10, 20, 2), level(32, 20, 900, 2)]},
            },
            "slow": {
                "micro-batching": {**run, "levels": [level(32, 30, 300, 1)]},
                "batch 1": {**run, "levels": [level(32, 20, 400, 2)]},
            },
        },
        "batched_vs_alone_parses": {"sentences": 2, "words": 10, "same_head_and_label": 0.9, "identical_texts": 1},
    }
    results["aims"] = bench.aims(results, [1, 32])
    assert results["aims"]["fast"]["speedup_met"] and results["aims"]["fast"]["p99_met"]
    assert results["aims"]["fast"]["server_cpu_per_request_ratio_at_32_clients"] == 4.0
    assert not results["aims"]["slow"]["speedup_met"] and not results["aims"]["slow"]["p99_met"]
    bench.write_report(results, tmp_path)
    report = (tmp_path / "serve_load.md").read_text()
    assert "fast: micro-batching serves 5.00x" in report and "slow: micro-batching serves 1.50x" in report
    assert json.loads((tmp_path / "serve_load.json").read_text())["aims"] == results["aims"]


def test_baseline_option_arguments():
    args = bench.parse_args(["--baseline-rev", "155ab37", "--models", "parser", "--seconds", "3"])
    assert args.baseline_rev == "155ab37" and args.models == ["parser"] and args.seconds == 3
    assert bench.parse_args([]).baseline_rev is None and bench.parse_args([]).models == ["parser", "dan"]
    for bad in (["--baseline-rev", " "], ["--models", "bert"], ["--seconds", "0"], ["--levels", "0"]):
        with pytest.raises(SystemExit):
            bench.parse_args(bad)


def test_baseline_revision_must_be_a_commit():
    with (
        pytest.raises(SystemExit, match="--baseline-rev no-such-rev-xyz: not a commit"),
        bench.revision_worktree("no-such-rev-xyz"),
    ):
        pass


def test_baseline_child_imports_the_worktree_code(tmp_path):
    """The environment given to the older server's child puts the worktree's green_nlp first, even
    though the child's working directory is this checkout (python -m would put it first)."""
    fake = tmp_path / "green_nlp"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    check = bench.child_check(bench.revision_env(tmp_path), tmp_path / "no_model")
    assert check["green_nlp_file"] == str(fake / "__init__.py") and not check["loads"]


def test_baseline_ratios_are_current_over_baseline():
    current, baseline = level(32, 90, 110, 1), level(32, 100, 100, 1)
    assert bench.ratios(current, baseline) == {"p50_ms_ratio": 1.1, "p99_ms_ratio": 1.1, "requests_per_s_ratio": 0.9}
