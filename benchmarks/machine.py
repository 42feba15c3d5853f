"""Which kind of CPU a benchmark ran on, finely enough to compare runs.

Why: a virtual machine's CPU name can be as bare as "AMD EPYC" for several generations, and the
runtime's int8 graphs (onnxruntime's int8 matrix products) run about twice as fast, against fp32 peers
such as spaCy, where the CPU has dot-product instructions for 8-bit integers (VNNI, AMX). The time
budget's runs are grouped by this kind, not by the name alone. Standard library only: the runtime
benchmark's torch-free child processes import the benchmarks package.
"""

import platform
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")
NOT_READ = "family and int8 instructions not read"

# the widest int8 dot-product instructions a CPU has, best first: (flag in /proc/cpuinfo, name)
INT8_INSTRUCTIONS = (
    ("amx_int8", "AMX"),
    ("avx512_vnni", "AVX-512 VNNI"),
    ("avx_vnni", "AVX-VNNI"),
    ("avx512bw", "AVX-512 without VNNI"),
    ("avx2", "AVX2 without VNNI"),
    ("asimddp", "Arm dot product"),
)


def int8_instructions(flags: set[str]) -> str:
    """The best int8 dot-product instructions named in a CPU's flags."""
    for flag, name in INT8_INSTRUCTIONS:
        if flag in flags:
            return name
    return "no AVX2, VNNI or Arm dot product"


def cpu_kind_of(cpuinfo: str) -> str:
    """'<model name>, family F model M, int8: <instructions>' from the text of /proc/cpuinfo (its
    first processor's fields; x86 names its family and model, Arm its implementer and part)."""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        if not line.strip():
            if fields:
                break  # the first processor is enough: a machine's logical CPUs are alike
            continue
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    name = fields.get("model name") or platform.processor() or platform.machine()
    flags = set((fields.get("flags") or fields.get("Features") or "").split())
    if "cpu family" in fields:
        where = f"family {fields['cpu family']} model {fields.get('model', '?')}"
    elif "CPU implementer" in fields:
        where = f"implementer {fields['CPU implementer']} part {fields.get('CPU part', '?')}"
    else:
        where = "family not read"
    return f"{name}, {where}, int8: {int8_instructions(flags)}"


def cpu_kind() -> str:
    """This machine's `cpu_kind_of`; the bare processor name where /proc/cpuinfo cannot be read."""
    try:
        return cpu_kind_of(CPUINFO.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return f"{platform.processor() or platform.machine()}, {NOT_READ}"
