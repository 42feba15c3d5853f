#!/usr/bin/env bash
# `pip install .` into a fresh virtual environment gives the runtime alone (no torch, no allennlp),
# and a shipped model parses there: the path of a user who only wants a ready model.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python=${PYTHON:-python3}
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "$repo" pytest 2>&1 | { grep -v "is ignored: it is neither a file nor a directory" || true; }
for heavy in torch allennlp; do
  if "$work/venv/bin/python" -c "import $heavy" 2>/dev/null; then
    echo "[runtime install] $heavy was installed by 'pip install .'" >&2; exit 1
  fi
done
echo "[runtime install] venv size: $(du -sh "$work/venv" | cut -f1)"
cd "$work"
TIMEFORMAT="[runtime install] green-nlp parse took %R s"
time "$work/venv/bin/green-nlp" parse en-ewt-parser "$repo/fixtures/raw_text.txt" -o parsed.conllu --no-progress
grep -q $'^1\t' parsed.conllu || { echo "[runtime install] no parse written" >&2; exit 1; }
# the folder command the runtime names for a DAN folder without its n-gram index runs here too
cp -r "$repo/pretrained/en-sst2-sentiment" sentiment-copy
"$work/venv/bin/python" -m green_nlp.export.ngram_index sentiment-copy > index.out
"$work/venv/bin/green-nlp" classify sentiment-copy "$repo/fixtures/raw_text.txt" -o sentiment.jsonl --no-progress
grep -q '"label"' sentiment.jsonl || { echo "[runtime install] no classification written" >&2; exit 1; }
echo "[runtime install] python -m green_nlp.export.ngram_index ran: $(tail -1 index.out | cut -c1-80)"
# the tests of the shipped models, against the installed package (a copy outside the clone)
cp "$repo/tests/runtime/pretrained_test.py" "$work/pretrained_test.py"
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$work/pretrained_test.py"
# a training command in the runtime-only install says what it needs instead of a traceback
if "$work/venv/bin/green-nlp" train x.jsonnet -s run > train.out 2>&1; then
  echo "[runtime install] green-nlp train ran without AllenNLP" >&2; exit 1
fi
grep -q "needs the training stack" train.out || { echo "[runtime install] unclear train error:" >&2; cat train.out >&2; exit 1; }
! grep -q Traceback train.out || { echo "[runtime install] train error was a traceback" >&2; exit 1; }
echo "[runtime install] green-nlp train refused clearly: $(tail -1 train.out | cut -c1-80)..."
# the numba extra: numba alone (the engine reads its graph with protobuf, not onnx), the same labels
"$work/venv/bin/python" -m pip install -q "$repo[numba]" 2>&1 | { grep -v "is ignored: it is neither a file nor a directory" || true; }
if "$work/venv/bin/python" -c "import onnx" 2>/dev/null; then
  echo "[runtime install] the numba extra installed onnx" >&2; exit 1
fi
"$work/venv/bin/green-nlp" classify sentiment-copy "$repo/fixtures/raw_text.txt" --engine numba -o numba.jsonl --no-progress
labels() { "$work/venv/bin/python" -c 'import json, sys; print([json.loads(l).get("label") for l in open(sys.argv[1])])' "$1"; }
[ "$(labels numba.jsonl)" = "$(labels sentiment.jsonl)" ] || { echo "[runtime install] numba labels differ" >&2; exit 1; }
TIMEFORMAT="[runtime install] green-nlp classify --engine numba took %R s (numba's cache filled)"
time "$work/venv/bin/green-nlp" classify sentiment-copy "$repo/fixtures/raw_text.txt" --engine numba -o numba.jsonl --no-progress
