#!/bin/bash
# The sparse-distillation runs behind benchmarks/results/dan.json, sized for a shared 2-core CPU
# (run from the repo root; each step is skipped when its output exists, `allennlp train` resumes
# with -r and teacher labeling continues after its last complete record when interrupted).
#   bash benchmarks/runs/dan.sh [sst2|trec|imdb|imdb_long_labels|bench]   (default: sst2 trec imdb bench)
# Shortened against the paper (said in each config's header and in docs/dan.md): MiniLM-L6 teacher
# (not RoBERTa-Large) fine-tuned on a subsample for 1-2 epochs with short inputs; DAN |V| 100-300k
# (not 1M), d 200 (not 1,000); distillation corpus = SST-2's training phrases + 40k IMDB sentences
# (not Amazon reviews), TREC's training questions + 20 augmented copies of each (not PAQ), an IMDB
# sample (not all 75k reviews).
set -euo pipefail
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
ALLENNLP=${ALLENNLP:-.venv/bin/allennlp}
PY=${PY:-.venv/bin/python}
DATA=${GREEN_NLP_DATA:-$("$PY" -c "from green_nlp.data_paths import data_dir; print(data_dir())")}
C=training_configs/dan
R=runs/dan

train() {  # config serialization_dir
  local config=$1 dir=$2
  # a killed run also leaves a model.tar.gz (AllenNLP archives its best epoch on SIGTERM); only a
  # finished one has metrics.json
  if [ -f "$dir/metrics.json" ] && [ -f "$dir/model.tar.gz" ]; then echo "done: $dir"; return; fi
  local resume=""; [ -d "$dir" ] && resume="-r"
  mkdir -p "$(dirname "$dir")"
  nice -n 10 "$ALLENNLP" train "$config" -s "$dir" $resume --include-package green_nlp > "$dir.log" 2>&1
}

label() {  # teacher_archive output [green-label-teacher options...] -- inputs...; resumable
  local archive=$1 output=$2; shift 2
  nice -n 10 "$ALLENNLP" green-label-teacher "$archive" "$@" --output "$output" --batch-size 64 --threads 1 \
    --include-package green_nlp > "$output.log" 2>&1
}

step_sst2() {
  train $C/teacher_sst2.jsonnet $R/sst2/teacher                       # first 10,000 phrases, 1 epoch
  # distillation corpus: all 67,349 training phrases (the teacher saw the first 10,000 with labels).
  # The second part was stopped early on the shared CPU: its cache holds what was labeled by then
  # (the reader takes complete records only); rerun this line to complete it.
  label $R/sst2/teacher/model.tar.gz $R/sst2/kd.teacher.jsonl --max-examples-per-input 40000 "$DATA/cls/sst2/train.tsv"
  if [ -n "${SST2_LABEL_REST:-}" ]; then
    label $R/sst2/teacher/model.tar.gz $R/sst2/kd_rest.teacher.jsonl --skip-per-input 40000 "$DATA/cls/sst2/train.tsv"
  fi
  # + unlabeled movie-review text, as the issue's corpus asks: the first 40,000 sentences of 4-40
  # spaCy tokens in IMDB's unlabeled reviews
  [ -f $R/sst2/imdb_sentences.txt ] || nice -n 10 "$PY" -c "import sys; from green_nlp.dataset_readers.lm_corpus \
import write_review_sentences; write_review_sentences(*sys.argv[1:], count=40000)" "$DATA/cls/imdb/train_unsup.jsonl.gz" $R/sst2/imdb_sentences.txt
  label $R/sst2/teacher/model.tar.gz $R/sst2/kd_imdb.teacher.jsonl --format lines $R/sst2/imdb_sentences.txt
  train $C/dan_scratch_sst2.jsonnet $R/sst2/scratch
  train $C/dan_kd_sst2.jsonnet $R/sst2/kd
  train $C/dan_kd_ft_sst2.jsonnet $R/sst2/kd_ft
  # + 5 perturbed copies of each of the teacher's 10,000 labeled phrases (Tang et al. 2019); the
  # cache name stays outside kd*, so dan_scratch_sst2's vocabulary is unchanged
  [ -f $R/sst2/augmented.txt ] || nice -n 10 "$PY" -c "import sys; from green_nlp.data.augmentation \
import write_augmented_texts; print(write_augmented_texts(*sys.argv[1:], copies=5, max_examples=10000))" \
    "$DATA/cls/sst2/train.tsv" $R/sst2/augmented.txt
  label $R/sst2/teacher/model.tar.gz $R/sst2/augmented.teacher.jsonl --format lines $R/sst2/augmented.txt
  train $C/dan_kd_augmented_sst2.jsonnet $R/sst2/kd_augmented
}

step_trec() {
  # TREC has no dev set: every 10th training question (545) is held out for model selection
  # (split dev), the other 4,907 train (split train); the test set is only evaluated at the end
  train $C/teacher_trec.jsonnet $R/trec/teacher                       # 4,907 questions, 2 epochs
  label $R/trec/teacher/model.tar.gz $R/trec/kd.teacher.jsonl --split train "$DATA/cls/trec/train.txt"
  # no question corpus here (the paper uses PAQ): 20 perturbed copies of each training question
  # (Tang et al. 2019: mask / replace words, cut to an n-gram), labeled by the teacher
  [ -f $R/trec/augmented.txt ] || nice -n 10 "$PY" -c "import sys; from green_nlp.data.augmentation \
import write_augmented_texts; print(write_augmented_texts(*sys.argv[1:], copies=20, split='train'))" \
    "$DATA/cls/trec/train.txt" $R/trec/augmented.txt
  label $R/trec/teacher/model.tar.gz $R/trec/kd_augmented.teacher.jsonl --format lines $R/trec/augmented.txt
  train $C/dan_scratch_trec.jsonnet $R/trec/scratch
  train $C/dan_kd_trec_train_only.jsonnet $R/trec/kd_train_only       # ablation: no augmented copies
  train $C/dan_kd_trec.jsonnet $R/trec/kd
  train $C/dan_kd_ft_trec.jsonnet $R/trec/kd_ft
}

step_imdb() {  # teacher ~30 min on two threads, its labels ~25 min on two cores, the DANs ~10
  OMP_NUM_THREADS=2 MKL_NUM_THREADS=2 train $C/teacher_imdb.jsonnet $R/imdb/teacher
  label $R/imdb/teacher/model.tar.gz $R/imdb/kd_train.teacher.jsonl --every-nth 2 "$DATA/cls/imdb/train.jsonl.gz" &
  label $R/imdb/teacher/model.tar.gz $R/imdb/kd_unsup.teacher.jsonl --every-nth 3 "$DATA/cls/imdb/train_unsup.jsonl.gz"
  wait
  train $C/dan_scratch_imdb.jsonnet $R/imdb/scratch
  train $C/dan_kd_imdb.jsonnet $R/imdb/kd
  train $C/dan_kd_ft_imdb.jsonnet $R/imdb/kd_ft
}

step_imdb_long_labels() {  # the same teacher reading up to 1,024 word pieces in 256-piece segments
  # (benchmarks/dan_teacher_long_inputs.py measures what that adds); labels for a later DAN(KD) run
  local long; long=$("$PY" -m green_nlp.data.long_inputs 1024 256)
  mkdir -p $R/imdb_long
  label $R/imdb/teacher/model.tar.gz $R/imdb_long/kd_train.teacher.jsonl -o "$long" --every-nth 2 "$DATA/cls/imdb/train.jsonl.gz"
  label $R/imdb/teacher/model.tar.gz $R/imdb_long/kd_unsup.teacher.jsonl -o "$long" --every-nth 3 "$DATA/cls/imdb/train_unsup.jsonl.gz"
}

step_bench() {
  nice -n 10 "$PY" benchmarks/dan.py --runs runs --datasets sst2 trec imdb
}

for step in ${@:-sst2 trec imdb bench}; do "step_$step"; done
