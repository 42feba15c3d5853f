#!/bin/bash
# Silver temperature study behind experiments/parser_silver_temperature/results/: does softening the
# teacher's stored top-2 silver distributions (temperature T: p^(1/T), renormalised, KL scaled by T^2;
# green_nlp.nn.distillation.sparse_kl_divergence) let D-20 beat self-training on the same silver text?
# At T = 1 the two tied at every budget (docs/parser.md, "Teacher-scale distillation"): the teacher's
# silver distributions are close to one-hot, so soft targets carry little beyond the 1-best tree.
# Each run is D-20 soft 49k of scripts/silver_students.sh (same config, 10 epochs, the same seeds as its
# SEED=1 and SEED=2 runs), with the silver callback's temperature set:
#   bash experiments/parser_silver_temperature/run.sh        # T in TEMPERATURES (default 2), seeds 1 2
#   python -m experiments.parser_silver_temperature.score    # scores them beside the T = 1 runs
# About 2 minutes an epoch on one core; two side by side. A finished run (model.tar.gz) is skipped; an
# unfinished one resumes (allennlp train -r).
set -euo pipefail
cd "$(dirname "$0")/../.."
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
ALLENNLP=${ALLENNLP:-.venv/bin/allennlp}
TEMPERATURES=${TEMPERATURES:-2}
RUNS=runs/parser/ud_ewt

run() {  # temperature seed
  local run=$RUNS/silver_d20_large_t$1 seeds="" resume=()
  if [ "$2" != 1 ]; then
    run="${run}_seed$2"
    seeds=", \"random_seed\": $2$2$2, \"numpy_seed\": $2$2, \"pytorch_seed\": $2"  # as silver_students.sh
  fi
  [ -f "$run/model.tar.gz" ] && { echo "done: $run"; return; }
  [ -d "$run" ] && resume=(-r)
  SIZE=20 MODE=soft SILVER=49000 "$ALLENNLP" train training_configs/parser/ud_ewt_silver_student.jsonnet \
    -s "$run" "${resume[@]}" -o "{\"trainer.cuda_device\": -1, \"trainer.callbacks\": \
[{\"type\": \"green_silver_distillation\", \"temperature\": $1}]$seeds}" > "$run.log" 2>&1
  echo "$run: $(grep -o '"test_LAS": [0-9.]*' "$run/metrics.json")"
}

for temperature in $TEMPERATURES; do
  for seed in 1 2; do
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 10; done
    run "$temperature" "$seed" &
  done
done
wait
