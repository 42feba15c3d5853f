"""The thread-cost benchmark's arithmetic and its child timing (the whole runs need a runtime venv)."""

import sys
from pathlib import Path

import pytest

from benchmarks.runtime import thread_cost
from benchmarks.runtime.time_budget import child_times


def test_rows_are_medians_and_ratios_to_the_one_thread_run():
    runs = {"parse": {"threads 1": [(2.0, 2.0), (1.0, 1.0), (3.0, 3.0)], "threads 2": [(3.0, 1.8), (3.0, 1.8)]}}
    rows = thread_cost.rows_of(runs, {"parse": 1000})
    one, two = rows["parse, threads 1"], rows["parse, threads 2"]
    assert one["cpu_s"] == 2.0 and one["cpu_vs_1_thread"] == 1.0 and one["items_per_cpu_s"] == 500.0
    assert two["cpu_vs_1_thread"] == pytest.approx(1.5) and two["wall_vs_1_thread"] == pytest.approx(0.9)


def test_a_child_is_timed_in_cpu_and_wall_seconds(tmp_path: Path):
    busy = "import time\nend = time.process_time() + 0.2\nwhile time.process_time() < end: pass\n"
    cpu, wall = child_times([sys.executable, "-c", busy], {}, tmp_path)
    assert 0.2 <= cpu < 2.0 and wall >= cpu * 0.5
    idle_cpu, idle_wall = child_times([sys.executable, "-c", "import time; time.sleep(0.3)"], {}, tmp_path)
    assert idle_wall >= 0.3 and idle_cpu < 0.25
