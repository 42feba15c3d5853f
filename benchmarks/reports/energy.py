"""CPU-seconds and an energy estimate per million items, from a speed figure.

Why an estimate: no power counter (RAPL, IPMI) is readable on the machines the README's figures come
from, and CodeCarbon is not installed (offline, it would fall back to a TDP estimate too). The method,
stated beside every figure: one busy CPU (logical core, one thread) draws its share of the processor's
TDP, `WATTS_PER_CPU`. The figures' CPU is reported only as "AMD EPYC" (no model number), so the
share is assumed from a typical server part of that family: 225 W TDP over 64 cores, 3.5 W a core.
Memory, disk, idle and cooling power are left out, so this is a lower bound on the wall-plug energy.
"""

from typing import Optional

# assumed: AMD EPYC, 225 W TDP / 64 cores (e.g. the EPYC 7003 series' 64-core parts), one thread a core
TDP_WATTS = 225.0
CORES = 64
WATTS_PER_CPU = TDP_WATTS / CORES
METHOD = (
    f"energy = CPU-seconds x {WATTS_PER_CPU:.2f} W (an AMD EPYC's TDP share per core, {TDP_WATTS:.0f} W / "
    f"{CORES} cores, assumed: no power counter is readable and the exact CPU model is not reported); "
    "CPU only, no memory, idle or cooling power"
)


def method_for(cpu: str) -> str:
    """`METHOD`, saying so where the run's CPU is not the AMD EPYC the share was assumed for: the
    same share is applied, so figures stay comparable, but that CPU's own share is not known."""
    if "AMD EPYC" in cpu:
        return METHOD
    return (
        f"{METHOD}; this run's CPU ({cpu}) is not that part, "
        "and its own TDP share is not known: the same share is applied"
    )


def cpu_seconds_per_million(per_cpu_second: Optional[float]) -> Optional[float]:
    """CPU-seconds to process a million items at `per_cpu_second` items per CPU-second."""
    if not per_cpu_second or per_cpu_second <= 0:
        return None
    return 1e6 / per_cpu_second


def wh_per_million(per_cpu_second: Optional[float], watts_per_cpu: float = WATTS_PER_CPU) -> Optional[float]:
    """Estimated watt-hours (CPU share of TDP) to process a million items."""
    seconds = cpu_seconds_per_million(per_cpu_second)
    return None if seconds is None else seconds * watts_per_cpu / 3600.0


def kwh(cpu_hours: Optional[float], watts_per_cpu: float = WATTS_PER_CPU) -> Optional[float]:
    """Estimated kWh of `cpu_hours` busy CPU-hours (training)."""
    return None if cpu_hours is None else cpu_hours * watts_per_cpu / 1000.0
