#!/bin/bash
# The LD-Net runs behind benchmarks/results/ldnet.json, sized for a shared 2-core CPU (run from the
# repo root; each step is skipped when its archive exists and resumed with -r when interrupted).
#   bash benchmarks/runs/ldnet.sh [lm|nolm|origin|prune|finetune|wnut17|conll2000|seed2|bench ...]   (default: all, in order)
# Shortened against the paper (say so in docs/ldnet.md): LMs of 10 layers x 100 units (the paper's
# depth, a third of its width) read a 4.43M-word corpus twice (IMDB unlabeled + the tagging sets'
# training text; not 1B words for 10 epochs); taggers for at most EPOCHS epochs with patience 5
# (not up to 200); layer selection for PRUNE_EPOCHS. Beyond the paper, each pruned tagger is then
# fine-tuned for 5 epochs with its LM layers and gates fixed (pruned_ft). The committed results ran
# all steps with the defaults (EPOCHS=20, PRUNE_EPOCHS=8); their LMs first ran one epoch and were
# then resumed (-r) for the second after raising num_epochs in their saved config.json, which
# continues the same optimizer state and schedule as a fresh 2-epoch run.
set -euo pipefail
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
ALLENNLP=${ALLENNLP:-.venv/bin/allennlp}
PY=${PY:-.venv/bin/python}
EPOCHS=${EPOCHS:-20}
PRUNE_EPOCHS=${PRUNE_EPOCHS:-8}
R=${LDNET_RUNS:-runs/ldnet}  # where the LD-Net configs look for the trained LMs
TAGGER=training_configs/ldnet/tagger.jsonnet  # every tagger: TASK (ner, wnut17, chunking) x STAGE, from the environment

train() {  # config serialization_dir [overrides]; callers append to a log, so a skipped or resumed run keeps the earlier one
  local config=$1 dir=$2 overrides=${3:-"{}"}
  # a killed run also leaves a model.tar.gz (AllenNLP archives its best epoch on SIGTERM); only a
  # finished one has metrics.json
  if [ -f "$dir/metrics.json" ] && [ -f "$dir/model.tar.gz" ]; then echo "done: $dir"; return; fi
  local resume=""; [ -d "$dir" ] && resume="-r"
  nice -n 10 "$ALLENNLP" train "$config" -s "$dir" $resume -o "$overrides" --include-package green_nlp
}

step_lm() {
  [ -f $R/lm_corpus/train.txt ] || nice -n 10 "$PY" -m green_nlp.dataset_readers.lm_corpus $R/lm_corpus --imdb-tokens 4000000
  # the two directions in parallel (one core each)
  train training_configs/ldnet/lm_forward.jsonnet $R/lm_forward >> $R/lm_forward.log 2>&1 &
  train training_configs/ldnet/lm_backward.jsonnet $R/lm_backward >> $R/lm_backward.log 2>&1 &
  wait
}

step_nolm() {  # needs no LM: can run while the LMs train
  TASK=ner STAGE=nolm train $TAGGER $R/conll2003/nolm "{\"trainer.num_epochs\": $EPOCHS}" >> $R/conll2003_nolm.log 2>&1
}

# A second seed of both CoNLL-03 taggers, to tell the LMs' gain from seed noise (allennlp metrics
# in runs/ldnet/conll2003_seed2/*/metrics.json; not part of benchmarks.ldnet.taggers' table)
step_seed2() {
  local seed='"random_seed": 2, "numpy_seed": 2, "pytorch_seed": 2'
  TASK=ner STAGE=nolm train $TAGGER $R/conll2003_seed2/nolm "{\"trainer.num_epochs\": $EPOCHS, $seed}" >> $R/conll2003_seed2_nolm.log 2>&1
  LDNET_LM_PRESET=cpu TASK=ner STAGE=origin train $TAGGER $R/conll2003_seed2/origin "{\"trainer.num_epochs\": $EPOCHS, $seed}" >> $R/conll2003_seed2_origin.log 2>&1
}

step_origin() {
  LDNET_LM_PRESET=cpu TASK=ner STAGE=origin train $TAGGER $R/conll2003/origin "{\"trainer.num_epochs\": $EPOCHS}" >> $R/conll2003_origin.log 2>&1
}

step_prune() {
  LDNET_LM_PRESET=cpu TASK=ner STAGE=prune train $TAGGER $R/conll2003/select "{\"trainer.num_epochs\": $PRUNE_EPOCHS}" >> $R/conll2003_select.log 2>&1
  [ -f $R/conll2003/pruned/model.tar.gz ] || { mkdir -p $R/conll2003/pruned; nice -n 10 "$ALLENNLP" green-prune-ldnet \
    $R/conll2003/select/model.tar.gz $R/conll2003/pruned/model.tar.gz --include-package green_nlp > $R/conll2003/pruned/summary.json; }
}

# Beyond the paper: fine-tune the pruned tagger (LM layers and gates fixed), then write it as an
# archive that loads without the pruned one (green-prune-ldnet resolves the from_archive config).
finetune() {  # task runs_name
  local task=$1 ds=$2
  LDNET_LM_PRESET=cpu TASK=$task STAGE=finetune train $TAGGER $R/$ds/finetune >> $R/${ds}_finetune.log 2>&1
  [ -f $R/$ds/pruned_ft/model.tar.gz ] || { mkdir -p $R/$ds/pruned_ft; nice -n 10 "$ALLENNLP" green-prune-ldnet \
    $R/$ds/finetune/model.tar.gz $R/$ds/pruned_ft/model.tar.gz --include-package green_nlp > $R/$ds/pruned_ft/summary.json; }
}
step_finetune() { finetune ner conll2003; }

# The same stages for another dataset (TASK of the tagger config: wnut17 or chunking).
other_dataset() {  # task runs_name
  local task=$1 ds=$2
  TASK=$task STAGE=nolm train $TAGGER $R/$ds/nolm "{\"trainer.num_epochs\": $EPOCHS}" >> $R/${ds}_nolm.log 2>&1
  LDNET_LM_PRESET=cpu TASK=$task STAGE=origin train $TAGGER $R/$ds/origin "{\"trainer.num_epochs\": $EPOCHS}" >> $R/${ds}_origin.log 2>&1
  LDNET_LM_PRESET=cpu TASK=$task STAGE=prune train $TAGGER $R/$ds/select "{\"trainer.num_epochs\": $PRUNE_EPOCHS}" >> $R/${ds}_select.log 2>&1
  [ -f $R/$ds/pruned/model.tar.gz ] || { mkdir -p $R/$ds/pruned; nice -n 10 "$ALLENNLP" green-prune-ldnet \
    $R/$ds/select/model.tar.gz $R/$ds/pruned/model.tar.gz --include-package green_nlp > $R/$ds/pruned/summary.json; }
  finetune $task $ds
}
step_wnut17() { other_dataset wnut17 wnut17; }
step_conll2000() { other_dataset chunking conll2000; }

step_bench() {
  nice -n 10 "$PY" -m benchmarks.ldnet.taggers
}

steps=${*:-all}
[ "$steps" = all ] && steps="lm nolm origin prune finetune wnut17 conll2000 seed2 bench"
for s in $steps; do declare -F "step_$s" > /dev/null || { echo "unknown step $s" >&2; exit 2; }; done
mkdir -p $R
for s in $steps; do echo "== $s $(date -u +%FT%TZ)"; "step_$s"; done
