#!/bin/bash
# Silver-size study behind experiments/dan_silver_size/results/dan_silver_size.json: the shipped
# sentiment DAN's config (training_configs/dan/en_sst2_sentiment.jsonnet) distilled over SST-2's
# training phrases + the first N teacher-labelled IMDB sentences, N in SIZES, each with several seeds,
# so that "more silver text helps" is judged on more than one run (SST-2 dev is 872 sentences: one
# sentence = 0.11 points).
#   bash experiments/dan_silver_size/run.sh [seeds...]   (default: default 2 3; `default` = AllenNLP's seeds)
# Needs the recipe's teacher caches (python scripts/build_pretrained.py en-sst2-sentiment writes them
# under runs/pretrained/en-sst2-sentiment). A DAN trains in 3-5 minutes on one core; two side by side;
# a finished run (metrics.json) is skipped.
set -euo pipefail
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
ALLENNLP=${ALLENNLP:-.venv/bin/allennlp}
PY=${PY:-.venv/bin/python}
SIZES=${SIZES:-60000 150000 300000}
CACHES=runs/pretrained/en-sst2-sentiment
R=$CACHES/silver_size

caches() {  # size: a folder with the SST-2 cache and the header + first `size` records of the IMDB cache
  local dir=$R/imdb$1
  [ -f "$dir/kd_imdb.teacher.jsonl" ] && return
  mkdir -p "$dir"
  local have; have=$(($(wc -l < $CACHES/kd_imdb.teacher.jsonl) - 1))
  [ "$have" -ge "$1" ] || { echo "the IMDB cache holds $have sentences, fewer than $1" >&2; exit 1; }
  ln -sf "$(pwd)/$CACHES/kd.teacher.jsonl" "$dir/kd.teacher.jsonl"
  head -n $(($1 + 1)) $CACHES/kd_imdb.teacher.jsonl > "$dir/kd_imdb.teacher.jsonl"
}

run() {  # size seed
  local dir=$R/imdb$1_s$2 seeds=""
  if [ -f "$dir/metrics.json" ]; then echo "done: $dir"; return; fi
  rm -rf "$dir"
  [ "$2" != default ] && seeds=", \"random_seed\": $2, \"numpy_seed\": $2, \"pytorch_seed\": $2"
  "$ALLENNLP" train training_configs/dan/en_sst2_sentiment.jsonnet -s "$dir" --include-package green_nlp \
    -o "{\"train_data_path\": \"$R/imdb$1/kd*.teacher.jsonl\"$seeds}" > "$dir.log" 2>&1
}

for size in $SIZES; do caches "$size"; done
for seed in ${@:-default 2 3}; do
  for size in $SIZES; do
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 5; done
    run "$size" "$seed" &
  done
done
wait
"$PY" -m experiments.dan_silver_size.score
