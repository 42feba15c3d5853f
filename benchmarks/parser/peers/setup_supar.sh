#!/usr/bin/env bash
# Install the SuPar peer (benchmark only, not a green_nlp dependency) beside the project venv, into
# the git-ignored runs/peers/site. --no-deps: torch, transformers, nltk and dill come from the
# project venv; stanza (raw-text tokenization in SuPar) is not needed for CoNLL-U input. Commands that
# use it put the folder on PYTHONPATH (PYTHONPATH=runs/peers/site python -m benchmarks.parser.distillation).
set -euo pipefail
cd "$(dirname "$0")/../../.."
.venv/bin/python -m pip install -q --no-deps --target runs/peers/site "supar==1.1.4"
PYTHONPATH=runs/peers/site .venv/bin/python -c "import supar; print('supar', supar.__version__)"
