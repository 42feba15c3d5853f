#!/usr/bin/env bash
# The student half of teacher-scale distillation (docs/parser.md, "Teacher-scale distillation"): after
# scripts/teacher_silver.sh, train the four SIZE=20 rows of the comparison at equal dims and updates:
# B-20 (gold only), self-training (hard silver), D-20 (soft silver) at two silver sizes.
#
#   bash scripts/silver_students.sh            # rerun to resume (allennlp train -r)
#
# Settings (environment): SILVER_SMALL (20000), SILVER_LARGE (49000), PARALLEL (2 runs at a time),
# SEED (1; another seed trains into folders ending _seed<SEED>), EPOCHS (10, the config's; another count
# trains into folders ending _e<EPOCHS>, early-stopping patience the same), ONLY (some of the folders'
# names, e.g. "silver_d20_large silver_st20_large"; default all four), CUDA_DEVICE (-1), OMP_NUM_THREADS (1),
# CONTINUE_FROM (an epoch count below EPOCHS: each run starts as a copy of its finished run of that many
# epochs, whose config is given the new epoch count and patience, and `allennlp train -r` goes on from
# its last checkpoint. The learning-rate schedule (reduce on plateau) does not depend on the epoch count,
# so this is the longer run except for the random state after the resume; the saved archive is dropped).
set -euo pipefail
cd "$(dirname "$0")/.."
# one thread a run unless told otherwise: two runs at torch's default (a thread per core) on a 2-core
# machine trained at 1.3-2 updates/s each, against 4.5-5 with one thread each
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
SMALL=${SILVER_SMALL:-20000}
LARGE=${SILVER_LARGE:-49000}
PARALLEL=${PARALLEL:-2}
SEED=${SEED:-1}
EPOCHS=${EPOCHS:-10}
CUDA_DEVICE=${CUDA_DEVICE:--1}
RUNS=runs/parser/ud_ewt
suffix=""
seeds=""
if [ "$SEED" != 1 ]; then
  suffix="_seed$SEED"
  seeds=", \"random_seed\": $SEED$SEED$SEED, \"numpy_seed\": $SEED$SEED, \"pytorch_seed\": $SEED"
fi
if [ "$EPOCHS" != 10 ]; then
  suffix="${suffix}_e$EPOCHS"
  seeds="$seeds, \"trainer.num_epochs\": $EPOCHS, \"trainer.patience\": $EPOCHS"
fi
from_suffix="$suffix"  # the shorter run's folder suffix, for CONTINUE_FROM
if [ -n "${CONTINUE_FROM:-}" ]; then
  if [ "$CONTINUE_FROM" -ge "$EPOCHS" ]; then echo "CONTINUE_FROM ($CONTINUE_FROM) must be below EPOCHS ($EPOCHS)" >&2; exit 2; fi
  from_suffix="${suffix%_e$EPOCHS}"
  [ "$CONTINUE_FROM" != 10 ] && from_suffix="${from_suffix}_e$CONTINUE_FROM"
fi
continue_from() { # source-folder target-folder: the shorter run copied, its config set to EPOCHS
  [ -f "$1/model.tar.gz" ] || { echo "CONTINUE_FROM: $1 has not finished (no model.tar.gz)" >&2; return 1; }
  cp -r "$1" "$2"
  rm "$2/model.tar.gz"
  python - "$2/config.json" "$EPOCHS" <<'PY'
import json, sys
path, epochs = sys.argv[1], int(sys.argv[2])
config = json.load(open(path, encoding="utf-8"))
config["trainer"]["num_epochs"] = config["trainer"]["patience"] = epochs
json.dump(config, open(path, "w", encoding="utf-8"), indent=4)
PY
}
student() { # folder mode silver
  local run=$RUNS/$1$suffix resume=()
  [ -f "$run/model.tar.gz" ] && return 0
  if [ ! -d "$run" ] && [ -n "${CONTINUE_FROM:-}" ]; then
    continue_from "$RUNS/$1$from_suffix" "$run" || return 1
  fi
  [ -d "$run" ] && resume=(-r)
  SIZE=20 MODE=$2 SILVER=$3 allennlp train training_configs/parser/ud_ewt_silver_student.jsonnet -s "$run" \
    "${resume[@]}" -o "{\"trainer.cuda_device\": $CUDA_DEVICE$seeds}" >"$run.log" 2>&1
  echo "$1$suffix: $(grep -o '"test_LAS": [0-9.]*' "$run/metrics.json")"
}
jobs_list=("silver_d20_large soft $LARGE" "silver_b20 none 0" "silver_st20_large hard $LARGE" "silver_d20_small soft $SMALL")
for job in "${jobs_list[@]}"; do
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" ${job%% *} "* ]]; then continue; fi
  while [ "$(jobs -rp | wc -l)" -ge "$PARALLEL" ]; do sleep 10; done
  # shellcheck disable=SC2086
  student $job &
done
wait
