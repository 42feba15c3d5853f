"""CPU-seconds and the TDP-share energy estimate per million items."""

import pytest

from benchmarks.reports.energy import WATTS_PER_CPU, cpu_seconds_per_million, kwh, wh_per_million


def test_energy_per_million_from_a_rate():
    assert cpu_seconds_per_million(20_000.0) == pytest.approx(50.0)
    assert wh_per_million(20_000.0) == pytest.approx(50.0 * WATTS_PER_CPU / 3600)
    assert kwh(10.0) == pytest.approx(10.0 * WATTS_PER_CPU / 1000)
    assert cpu_seconds_per_million(None) is None and wh_per_million(0.0) is None and kwh(None) is None


def test_the_method_says_when_the_runs_cpu_is_not_the_assumed_part():
    from benchmarks.reports.energy import METHOD, method_for

    assert method_for("AMD EPYC") == METHOD
    other = method_for("Intel(R) Xeon(R) Processor @ 2.50GHz")
    assert other.startswith(METHOD) and "Intel(R) Xeon(R)" in other and "not known" in other
