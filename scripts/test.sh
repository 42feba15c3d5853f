#!/usr/bin/env bash
# The test command: set up (or reuse) the environment, then run the whole test suite on both cores
# (pytest-xdist; GREEN_NLP_TEST_WORKERS=0 runs it in one process, e.g. under a debugger).
# `--dist loadgroup` keeps the tests that start a Ray cluster or a two-process DDP run on one worker
# each (tests/conftest.py groups them), so two never share Ray's default cluster or torch's port.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}  # one thread per worker: the workers are the parallelism
exec .venv/bin/python -m pytest -q -n "${GREEN_NLP_TEST_WORKERS:-2}" --dist loadgroup "$@"
