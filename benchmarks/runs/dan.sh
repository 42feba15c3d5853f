#!/bin/bash
# The sparse-distillation runs behind benchmarks/results/dan.json, sized for a shared 2-core CPU
# (run from the repo root; each step is skipped when its output exists, `allennlp train` resumes
# with -r and teacher labeling continues after its last complete record when interrupted).
#   bash benchmarks/runs/dan.sh [sst2|trec|trec_questions|imdb|sst2_full|imdb_full|bench]
#   (default: sst2 trec imdb bench; sst2_full and imdb_full need a GPU; trec_questions only labels
#   text for the TREC seed study of the lab)
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
DATA=${GREEN_NLP_DATA:-$("$PY" -c "from green_nlp.settings import data_dir; print(data_dir())")}
C=training_configs/dan
R=runs/dan

train() {  # config serialization_dir [allennlp train options...]
  local config=$1 dir=$2; shift 2
  # a killed run also leaves a model.tar.gz (AllenNLP archives its best epoch on SIGTERM); only a
  # finished one has metrics.json
  if [ -f "$dir/metrics.json" ] && [ -f "$dir/model.tar.gz" ]; then echo "done: $dir"; return; fi
  local resume=""; [ -d "$dir" ] && resume="-r"
  mkdir -p "$(dirname "$dir")"
  nice -n 10 "$ALLENNLP" train "$config" -s "$dir" $resume --include-package green_nlp "$@" > "$dir.log" 2>&1
}

GPU_TRAIN='{"trainer.cuda_device": 0, "trainer.use_amp": true}'  # the *_full teachers: one GPU, mixed precision
need_gpu() {  # step name
  "$PY" -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else '$1: the teacher needs a GPU')"
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
  DATASET=sst2 STAGE=scratch train $C/student.jsonnet $R/sst2/scratch
  DATASET=sst2 STAGE=kd train $C/student.jsonnet $R/sst2/kd
  DATASET=sst2 STAGE=kd_ft train $C/student.jsonnet $R/sst2/kd_ft
  # + 5 perturbed copies of each of the teacher's 10,000 labeled phrases (Tang et al. 2019); the
  # cache name stays outside kd*, so the sst2 scratch student's vocabulary is unchanged
  [ -f $R/sst2/augmented.txt ] || nice -n 10 "$PY" -c "import sys; from green_nlp.data.augmentation \
import write_augmented_texts; print(write_augmented_texts(*sys.argv[1:], copies=5, max_examples=10000))" \
    "$DATA/cls/sst2/train.tsv" $R/sst2/augmented.txt
  label $R/sst2/teacher/model.tar.gz $R/sst2/augmented.teacher.jsonl --format lines $R/sst2/augmented.txt
  DATASET=sst2 STAGE=kd_augmented train $C/student.jsonnet $R/sst2/kd_augmented
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
  DATASET=trec STAGE=scratch train $C/student.jsonnet $R/trec/scratch
  DATASET=trec STAGE=kd_train_only train $C/student.jsonnet $R/trec/kd_train_only       # ablation: no augmented copies
  DATASET=trec STAGE=kd train $C/student.jsonnet $R/trec/kd
  DATASET=trec STAGE=kd_ft train $C/student.jsonnet $R/trec/kd_ft
}

step_trec_questions() {  # after trec: real questions as extra distillation text for the seed study's
  # kd_questions (~1 min to find them with spaCy, ~3 min to label them on one core)
  local q=$R/trec_questions
  mkdir -p $q
  for part in train_unsup train; do
    [ -f $q/imdb_${part}_questions.txt ] || nice -n 10 "$PY" -c "import sys; from green_nlp.dataset_readers.lm_corpus \
import write_review_sentences; write_review_sentences(*sys.argv[1:], min_tokens=3, max_tokens=30, questions_only=True)" \
      "$DATA/cls/imdb/$part.jsonl.gz" $q/imdb_${part}_questions.txt
  done
  label $R/trec/teacher/model.tar.gz $R/trec/imdb_questions.teacher.jsonl --format lines \
    $q/imdb_train_unsup_questions.txt $q/imdb_train_questions.txt
}

step_imdb() {  # teacher ~30 min on two threads, its labels ~25 min on two cores, the DANs ~10
  OMP_NUM_THREADS=2 MKL_NUM_THREADS=2 train $C/teacher_imdb.jsonnet $R/imdb/teacher
  label $R/imdb/teacher/model.tar.gz $R/imdb/kd_train.teacher.jsonl --every-nth 2 "$DATA/cls/imdb/train.jsonl.gz" &
  label $R/imdb/teacher/model.tar.gz $R/imdb/kd_unsup.teacher.jsonl --every-nth 3 "$DATA/cls/imdb/train_unsup.jsonl.gz"
  wait
  DATASET=imdb STAGE=scratch train $C/student.jsonnet $R/imdb/scratch
  DATASET=imdb STAGE=kd train $C/student.jsonnet $R/imdb/kd
  DATASET=imdb STAGE=kd_ft train $C/student.jsonnet $R/imdb/kd_ft
}

step_imdb_full() {  # needs a GPU for the teacher and its labels (about 3 + 3 min on one H100);
  # the DANs then train on the CPU (~15 min with the two first ones side by side)
  need_gpu imdb_full
  train $C/teacher_imdb_full.jsonnet $R/imdb_full/teacher -o "$GPU_TRAIN"
  local archive=$R/imdb_full/teacher/model.tar.gz
  label $archive $R/imdb_full/kd_train.teacher.jsonl --cuda-device 0 --split train --dev-every 12 "$DATA/cls/imdb/train.jsonl.gz" &
  label $archive $R/imdb_full/kd_unsup.teacher.jsonl --cuda-device 0 --every-nth 3 "$DATA/cls/imdb/train_unsup.jsonl.gz"
  wait
  DATASET=imdb_full STAGE=scratch train $C/student.jsonnet $R/imdb_full/scratch &
  DATASET=imdb_full STAGE=kd train $C/student.jsonnet $R/imdb_full/kd
  wait
  DATASET=imdb_full STAGE=kd_ft train $C/student.jsonnet $R/imdb_full/kd_ft
}

step_sst2_full() {  # needs a GPU for the teacher and its labels (about 2.5 + 2 min on one H100);
  # the DANs then train on the CPU (about 15 min)
  need_gpu sst2_full
  train $C/teacher_sst2_full.jsonnet $R/sst2_full/teacher -o "$GPU_TRAIN"
  local archive=$R/sst2_full/teacher/model.tar.gz
  # + 300,000 sentences of 4-40 spaCy tokens from IMDB's unlabeled reviews (about 1 min)
  [ -f $R/sst2_full/imdb_sentences.txt ] || nice -n 10 "$PY" -c "import sys; from green_nlp.dataset_readers.lm_corpus \
import write_review_sentences; write_review_sentences(*sys.argv[1:], count=300000)" "$DATA/cls/imdb/train_unsup.jsonl.gz" $R/sst2_full/imdb_sentences.txt
  label $archive $R/sst2_full/kd_train.teacher.jsonl --cuda-device 0 "$DATA/cls/sst2/train.tsv" &
  for i in 0 1 2 3 4 5; do
    label $archive $R/sst2_full/kd_imdb_$i.teacher.jsonl --cuda-device 0 --format lines --shard $i/6 $R/sst2_full/imdb_sentences.txt &
  done
  wait
  DATASET=sst2_full STAGE=kd train $C/student.jsonnet $R/sst2_full/kd
  DATASET=sst2_full STAGE=scratch train $C/student.jsonnet $R/sst2_full/scratch &
  DATASET=sst2_full STAGE=kd_ft train $C/student.jsonnet $R/sst2_full/kd_ft
  wait
}

step_bench() {
  nice -n 10 "$PY" -m benchmarks.dan.distillation --runs runs
}

for step in ${@:-sst2 trec imdb bench}; do "step_$step"; done
