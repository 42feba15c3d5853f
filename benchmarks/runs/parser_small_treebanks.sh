#!/usr/bin/env bash
# Teacher + D/B students for the treebanks smaller than EWT (Tamil-TTB: 400 training sentences,
# Wolof-WTB: 1,188, Chinese-GSD v1.3: 3,997), one run after another on one CPU thread, then their
# rows of parser_distillation.json.
#   bash benchmarks/runs/parser_small_treebanks.sh [ud_tamil_ttb|ud_wolof_wtb|ud_chinese_gsd_v1_3 ...]
#   (default: Tamil and Wolof; Wolof was run with EPOCHS=20. Chinese: teacher up to 40 epochs (early
#   stopping ended it after 29), all eight students with EPOCHS=10, two chains side by side
#   (STUDENTS="d20 b20 d40", then "b40 b60 b80" and "d60 d80"), BENCH=0 on each, then the benchmark
#   once)
# Epochs are capped at EPOCHS (default 40; the configs' default is the paper's 100, early stopping
# after 10 epochs without a better dev LAS). A finished run (model.tar.gz) is skipped; an
# interrupted one is resumed with -r.
set -euo pipefail
cd "$(dirname "$0")/../.."
source .venv/bin/activate
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
EPOCHS=${EPOCHS:-40}
STUDENTS=${STUDENTS:-"d20 b20 d40 b40 d60 b60 d80 b80"}
BENCH=${BENCH:-1}  # 0: train only (for chains run side by side; benchmark once when all are done)

train() {  # config serialization_dir
  local config=$1 dir=$2
  # a killed run also leaves a model.tar.gz (AllenNLP archives its best epoch on SIGTERM); only a
  # finished one has metrics.json
  if [ -f "$dir/metrics.json" ] && [ -f "$dir/model.tar.gz" ]; then echo "done: $dir"; return; fi
  local resume=""; [ -d "$dir" ] && resume="-r"
  echo "== $dir $(date -u +%FT%TZ)"
  allennlp train "$config" -s "$dir" $resume -o "{\"trainer.num_epochs\": $EPOCHS}" --include-package green_nlp \
    > "$dir.log" 2>&1
}

declare -A TREEBANK_NAME=([ud_tamil_ttb]=UD_Tamil-TTB [ud_wolof_wtb]=UD_Wolof-WTB [ud_chinese_gsd_v1_3]=UD_Chinese-GSD_v1.3)
for treebank in ${@:-ud_tamil_ttb ud_wolof_wtb}; do
  mkdir -p "runs/parser/$treebank"
  train "training_configs/parser/$treebank.jsonnet" "runs/parser/$treebank/teacher"
  for student in $STUDENTS; do  # d<x>: distilled from the teacher, b<x>: without one (training_configs/parser/student.jsonnet)
    distilled=false; [ "${student:0:1}" = d ] && distilled=true
    export TREEBANK=$treebank SIZE=${student:1} DISTILLED=$distilled SEED=1
    train training_configs/parser/student.jsonnet "runs/parser/$treebank/$student"
  done
  if [ "$BENCH" = 1 ]; then
    python -m benchmarks.parser.distillation --treebanks "${TREEBANK_NAME[$treebank]}"
  fi
done
