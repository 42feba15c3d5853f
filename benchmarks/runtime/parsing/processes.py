"""A child process timed to its first line of output, with its peak RSS measured from a small
launcher (a child of this large process would inherit its peak)."""

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.runtime.parsing.settings import REPO_ROOT

# Runs a command from a small process and reports its peak RSS on stderr. A child started straight
# from this (large) process would report at least this process's own peak: Linux carries the peak
# RSS of the address space a process replaces at exec into its ru_maxrss.
RSS_LAUNCHER = """import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"\\nMAXRSS_KB={usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""
RSS_MARKER = "MAXRSS_KB="


def measured_process(
    command: list[str], env: dict[str, str], rss: bool = False, cwd: Path = REPO_ROOT
) -> dict[str, Any]:
    """Run `command`: seconds from its start to its first stdout line and to its exit, its stdout,
    and with `rss` its peak RSS in MB (then it runs under `RSS_LAUNCHER`, which adds that small
    Python's start to the times). stderr goes to a file, so neither pipe can fill up."""
    if rss:
        command = [sys.executable, "-c", RSS_LAUNCHER, *command]
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, env=env, cwd=cwd)
        first = process.stdout.readline()
        first_s = time.perf_counter() - start
        out = first + process.stdout.read()
        process.stdout.close()
        returncode = process.wait()
        exit_s = time.perf_counter() - start
        errors.seek(0)
        error_text = errors.read().decode(errors="replace")
    if returncode != 0 or not first:
        raise RuntimeError(f"{' '.join(command[-12:])} failed (exit {returncode}): {error_text[-3000:]}")
    found: dict[str, Any] = {"first_line_s": first_s, "exit_s": exit_s, "stdout": out.decode(errors="replace")}
    if rss:
        kilobytes = [line.split(RSS_MARKER)[1] for line in error_text.splitlines() if RSS_MARKER in line]
        found["max_rss_mb"] = int(kilobytes[-1]) / 1024
    return found


def child_times(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(user + system CPU seconds, wall seconds) of one child process, start to exit (its output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall
