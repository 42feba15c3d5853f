"""benchmarks.parser.distillation merges a run timed on one device into figures timed on the other,
so GPU figures measured elsewhere and CPU figures measured here end up in one table."""

from typing import Any

from benchmarks.parser.distillation import merge_figures


def row(las: float, **speeds: dict[str, float]) -> dict[str, Any]:
    return {"uas": las + 2, "las": las, "params": 10, **speeds}


CPU_UNDER = {"hardware": "Some CPU", "repeats": 3, "measured_on": "2026-01-01"}
GPU_UNDER = {"hardware": "Other CPU", "gpu": "Some GPU", "repeats": 3, "measured_on": "2026-01-02"}


def test_gpu_run_keeps_the_cpu_figures_and_the_cpu_only_rows() -> None:
    merge = merge_figures
    cpu_run = {
        "test_tokens": 5,
        "models": {
            "full": row(80.0, cpu_tokens_per_s={"32": 100.0}),
            "full+int8": row(79.9, cpu_tokens_per_s={"32": 150.0}),
        },
        "measured_under": {"cpu": CPU_UNDER},
    }
    gpu_run = {"test_tokens": 5, "models": {"full": row(80.1, gpu_tokens_per_s={"32": 9000.0})}}

    merged = merge(cpu_run, gpu_run, {"gpu": GPU_UNDER})

    assert merged["models"]["full"]["cpu_tokens_per_s"] == {"32": 100.0}
    assert merged["models"]["full"]["gpu_tokens_per_s"] == {"32": 9000.0}
    assert merged["models"]["full"]["las"] == 80.1  # accuracy comes from the latest run
    assert merged["models"]["full+int8"]["cpu_tokens_per_s"] == {"32": 150.0}
    assert merged["measured_under"] == {"cpu": CPU_UNDER, "gpu": GPU_UNDER}


def test_cpu_rerun_replaces_cpu_figures_and_drops_models_it_no_longer_finds() -> None:
    merge = merge_figures
    earlier = {
        "models": {
            "full": row(80.0, cpu_tokens_per_s={"32": 100.0}, gpu_tokens_per_s={"32": 9000.0}),
            "D-40": row(79.0, cpu_tokens_per_s={"32": 180.0}),
        },
        "measured_under": {"cpu": CPU_UNDER, "gpu": GPU_UNDER, "threads": 1},
    }
    rerun = {"models": {"full": row(80.0, cpu_tokens_per_s={"32": 120.0})}}

    merged = merge(earlier, rerun, {"cpu": {**CPU_UNDER, "measured_on": "2026-02-01"}})

    assert merged["models"]["full"]["cpu_tokens_per_s"] == {"32": 120.0}
    assert merged["models"]["full"]["gpu_tokens_per_s"] == {"32": 9000.0}
    assert "D-40" not in merged["models"]  # its CPU figure came from another run: not comparable
    assert set(merged["measured_under"]) == {"cpu", "gpu"}
    assert merged["measured_under"]["cpu"]["measured_on"] == "2026-02-01"
