#!/usr/bin/env bash
# EWT students distilled on a transfer set as well as the training set (an ablation beyond the paper):
# CoNLL-2000's WSJ sentences, given UPOS from their PTB tags, parsed by the full MiniLM teacher
# (runs/parser/ud_ewt/ablations/minilm_teacher, parser_ablations.sh) into silver trees, then joined to
# EWT train for the ud_ewt_d<x>_minilm_cross_fit_transfer runs (experiments/parser/variants.libsonnet).
#   bash experiments/parser/run_transfer.sh                 (the data, then the D-20 student)
#   NAMES=d40_minilm_cross_fit_transfer bash experiments/parser/run_transfer.sh
# The labeling took about 4 minutes on one thread. The students were run one thread each, side by side
# with other runs, and scored with
#   python -m experiments.parser.ablations --treebanks UD_English-EWT --same-teacher-run
set -euo pipefail
cd "$(dirname "$0")/../.."
source .venv/bin/activate
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
DATA=${GREEN_NLP_DATA:-../shared/data}
OUT=runs/parser/ud_ewt/transfer
TEACHER=runs/parser/ud_ewt/ablations/minilm_teacher/model.tar.gz
mkdir -p "$OUT"
if [ ! -f "$OUT/train_plus_conll2000_silver.conllu" ]; then
  if [ ! -f "$OUT/conll2000_silver.conllu" ]; then
    python -m experiments.parser.transfer_set --output "$OUT/conll2000.jsonl"
    allennlp predict "$TEACHER" "$OUT/conll2000.jsonl" --predictor green_dependency_parser \
      --output-file "$OUT/conll2000_silver.conllu" --include-package green_nlp --silent --batch-size 32
  fi
  # every input line must come back as a tree (a failed line would be a '#' comment, not a sentence; a killed
  # run leaves too few: remove the file and run again)
  python - "$OUT/conll2000.jsonl" "$OUT/conll2000_silver.conllu" <<'PY'
import sys
from green_nlp.dataset_readers.conllu_sentences import read_conllu
wanted = sum(1 for _ in open(sys.argv[1], encoding="utf-8"))
got = sum(1 for _ in read_conllu(sys.argv[2]))
if got != wanted:
    sys.exit(f"{sys.argv[2]}: {got} silver trees for {wanted} input sentences")
print(f"{got} silver trees")
PY
  # the treebank's file ends with a blank line, so the two files join into one CoNLL-U file
  cat "$DATA/ud/UD_English-EWT/en_ewt-ud-train.conllu" "$OUT/conll2000_silver.conllu" \
    > "$OUT/train_plus_conll2000_silver.conllu.tmp"
  mv "$OUT/train_plus_conll2000_silver.conllu.tmp" "$OUT/train_plus_conll2000_silver.conllu"
fi
NAMES=${NAMES:-d20_minilm_cross_fit_transfer} SCORE=0 bash experiments/parser/run_ablations.sh ud_ewt
