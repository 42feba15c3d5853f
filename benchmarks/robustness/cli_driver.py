"""Run many `green-nlp` command lines in one process (the runtime CLI's cases of
`benchmarks.robustness.bad_input`): one start-up for all of them instead of one per case.

    python -m benchmarks.robustness.cli_driver SPEC.json RESULTS.json

SPEC is a list of {"name", "argv", "stdin" (optional, latin-1 text of the bytes to feed)}; each
command runs as `green-nlp ARGV` does (`green_nlp.cli.main`), with file descriptors 0-2 on files,
so whatever it prints is caught, a raw traceback included. RESULTS maps name -> {"status",
"stdout", "stderr"}."""

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any


def run_one(argv: list[str], stdin: bytes) -> dict[str, Any]:
    from green_nlp.cli import main

    with tempfile.TemporaryDirectory() as folder:
        paths = [Path(folder) / name for name in ("in", "out", "err")]
        paths[0].write_bytes(stdin)
        saved = [os.dup(fd) for fd in (0, 1, 2)]
        # held while fds 0-2 point at them, closed in the finally below
        files = [open(paths[0], "rb"), open(paths[1], "wb"), open(paths[2], "wb")]  # noqa: SIM115
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, handle in enumerate(files):
            os.dup2(handle.fileno(), fd)
        try:
            main(argv)
            status = 0
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        except BaseException:  # noqa: BLE001  what Python would print for an uncaught error
            traceback.print_exc()
            status = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, copy in enumerate(saved):
                os.dup2(copy, fd)
                os.close(copy)
            for handle in files:
                handle.close()
        return {
            "status": status,
            "stdout": paths[1].read_bytes().decode("utf-8", errors="replace"),
            "stderr": paths[2].read_bytes().decode("utf-8", errors="replace"),
        }


def main() -> None:
    spec, results = Path(sys.argv[1]), Path(sys.argv[2])
    answers = {
        case["name"]: run_one(case["argv"], case.get("stdin", "").encode("latin-1"))
        for case in json.loads(spec.read_text(encoding="utf-8"))
    }
    results.write_text(json.dumps(answers), encoding="utf-8")


if __name__ == "__main__":
    main()
