#!/bin/bash
# Seed study behind experiments/dan_imdb_seeds/results/dan_imdb_seeds.json: IMDB's DAN(scratch) and DAN(KD) of the
# GPU teacher (dan.sh imdb_full) retrained with other seeds, so that "KD over scratch" is judged on
# more than one run of each (the benchmark's test sample is 1,000 reviews: one review = 0.1 points).
#   bash experiments/dan_imdb_seeds/run.sh [seeds...]   (default: 2 3)
# Needs the teacher caches in runs/dan/imdb_full. DAN(scratch) takes ~5 min on one core, DAN(KD)
# ~10; the two run side by side; a finished run (metrics.json) is skipped.
set -euo pipefail
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
ALLENNLP=${ALLENNLP:-.venv/bin/allennlp}
PY=${PY:-.venv/bin/python}
C=training_configs/dan
R=runs/dan/imdb_full/seeds

run() {  # variant seed
  local dir=$R/${1}_s$2
  if [ -f "$dir/metrics.json" ]; then echo "done: $dir"; return; fi
  rm -rf "$dir"; mkdir -p "$R"
  DATASET=imdb_full STAGE=$1 nice -n 10 "$ALLENNLP" train "$C/student.jsonnet" -s "$dir" \
    -o "{\"random_seed\": $2, \"numpy_seed\": $2, \"pytorch_seed\": $2}" --include-package green_nlp > "$dir.log" 2>&1
}

for seed in ${@:-2 3}; do
  run scratch "$seed" &
  run kd "$seed"
  wait
done
"$PY" -m experiments.dan_imdb_seeds.score --runs runs
