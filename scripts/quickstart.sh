#!/usr/bin/env bash
# One command for a new user: set everything up, train a small parser on the bundled fixtures,
# then parse a raw text file with `allennlp predict` (CoNLL-U out).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh
source .venv/bin/activate
out=runs/quickstart
mkdir -p runs
allennlp train training_configs/parser/quickstart.jsonnet -s "$out" -f --include-package green_nlp \
  > "$out.train.log" 2>&1 || { tail -n 40 "$out.train.log"; exit 1; }
python -c "import json; m = json.load(open('$out/metrics.json')); print(f\"[quickstart] trained: dev UAS {m['best_validation_UAS']:.3f} LAS {m['best_validation_LAS']:.3f}\")"
allennlp predict "$out/model.tar.gz" fixtures/raw_text.txt --output-file "$out/raw_text.conllu" \
  --silent --include-package green_nlp 2> "$out.predict.log" || { tail -n 40 "$out.predict.log"; exit 1; }
echo "[quickstart] parsed fixtures/raw_text.txt -> $out/raw_text.conllu:"
cat "$out/raw_text.conllu"
