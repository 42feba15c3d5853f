#!/bin/bash
# Does starting the DAN's n-gram table from GloVe word vectors (ngram_dan's `pretrained_file`,
# beyond the paper) help? The same configs with and without it, read by
# experiments/dan_word_vectors/score.py. Needs the runs of `bash benchmarks/runs/dan.sh sst2_full` (the
# SST-2 teacher cache and the plain kd / scratch runs) and of `experiments/dan_trec_seeds/run.sh`.
#   bash experiments/dan_word_vectors/run.sh [trec seeds...]   (default: 1 2 3)
set -euo pipefail
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
export GREEN_NLP_DATA=${GREEN_NLP_DATA:-../shared/data}
ALLENNLP=${ALLENNLP:-.venv/bin/allennlp}
PY=${PY:-.venv/bin/python}
C=training_configs/dan
VECTORS="\"model.pretrained_file\": \"$GREEN_NLP_DATA/emb/glove.6B.50d.green_nlp_vocab.txt.gz\""

train() {  # config run-folder extra-overrides
  if [ -f "$2/metrics.json" ]; then echo "done: $2"; return; fi
  rm -rf "$2"; mkdir -p "$(dirname "$2")"
  nice -n 10 "$ALLENNLP" train "$1" -s "$2" -o "{$VECTORS$3}" --include-package green_nlp > "$2.log" 2>&1
}
DATASET=sst2_full STAGE=kd train $C/student.jsonnet runs/dan/sst2_full/kd_glove ""
DATASET=sst2_full STAGE=scratch train $C/student.jsonnet runs/dan/sst2_full/scratch_glove ""
for seed in ${@:-1 2 3}; do
  for variant in scratch kd; do
    DATASET=trec STAGE=$variant train $C/student.jsonnet runs/dan/trec/glove/${variant}_s$seed \
      ", \"random_seed\": $seed, \"numpy_seed\": $seed, \"pytorch_seed\": $seed"
  done
done
"$PY" -m experiments.dan_word_vectors.score --runs runs
