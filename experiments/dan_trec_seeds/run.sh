#!/bin/bash
# Seed study behind experiments/dan_trec_seeds/results/dan_trec_seeds.json: TREC's test set has 500 questions (one
# question = 0.2 points) and single DAN runs move by several points with the seed, so whether the
# augmented distillation corpus helps is judged on the mean over seeds, dev and test.
#   bash experiments/dan_trec_seeds/run.sh [seeds...]   (default: 1 2 3 4 5)
# Needs the teacher caches of `bash benchmarks/runs/dan.sh trec trec_questions`. Each DAN run takes 15 s to 2 min
# on one core; a finished run (metrics.json) is skipped.
set -euo pipefail
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
ALLENNLP=${ALLENNLP:-.venv/bin/allennlp}
PY=${PY:-.venv/bin/python}
C=training_configs/dan
R=runs/dan/trec/seeds

declare -A STAGE_OF=([scratch]=scratch [kd_train_only]=kd_train_only [kd]=kd [kd_questions]=kd_questions)  # student.jsonnet
declare -A EXTRA=([scratch]="" [kd_train_only]="" [kd]="" [kd_questions]="" \
  [kd_t1]=', "trainer.callbacks": [{"type": "green_logit_distillation", "temperature": 1.0}]')
STAGE_OF[kd_t1]=kd
for seed in ${@:-1 2 3 4 5}; do
  for variant in scratch kd_train_only kd kd_t1 kd_questions; do
    dir=$R/${variant}_s$seed
    if [ -f "$dir/metrics.json" ]; then echo "done: $dir"; continue; fi
    rm -rf "$dir"; mkdir -p "$R"
    overrides="{\"random_seed\": $seed, \"numpy_seed\": $seed, \"pytorch_seed\": $seed${EXTRA[$variant]}}"
    DATASET=trec STAGE=${STAGE_OF[$variant]} nice -n 10 "$ALLENNLP" train "$C/student.jsonnet" -s "$dir" -o "$overrides" \
      --include-package green_nlp > "$dir.log" 2>&1
  done
done
"$PY" -m experiments.dan_trec_seeds.score --runs runs
