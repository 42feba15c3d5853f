#!/usr/bin/env bash
# The teacher half of teacher-scale distillation (docs/parser.md, "Teacher-scale distillation"), meant
# for a GPU: train the raw-text MiniLM parser teacher on EWT train, score it on EWT dev and test (gold
# tokens), then let it parse raw text into silver caches: EWT train's own sentences (one `# text` a
# line) and the first IMDB unlabelled reviews. The students (ud_ewt_silver_student.jsonnet) read only
# what this writes under runs/parser/ud_ewt/: the caches, the teacher's vocabulary and its fingerprint,
# so they train without the teacher archive.
#
#   CUDA_DEVICE=0 bash scripts/teacher_silver.sh
#
# Settings (environment): GREEN_NLP_DATA (../shared/data), CUDA_DEVICE (-1: CPU), TEACHER_MINUTES
# (stop training after this long and archive the best epoch so far; default: no limit), TEACHER_EPOCHS
# (default: the config's),
# IMDB_REVIEWS (4500), IMDB_SHARDS (3 labelling processes), TOP_K_HEADS (2), TOP_K_LABELS (2),
# LABEL_BATCH (128). Rerunning continues: training resumes (-r) and the caches continue where they stopped.
# green_nlp is loaded as an AllenNLP plugin from the repository root (.allennlp_plugins).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${GREEN_NLP_DATA:-../shared/data}
CUDA_DEVICE=${CUDA_DEVICE:--1}
IMDB_REVIEWS=${IMDB_REVIEWS:-4500}
IMDB_SHARDS=${IMDB_SHARDS:-3}
TOP_K_HEADS=${TOP_K_HEADS:-2}
TOP_K_LABELS=${TOP_K_LABELS:-2}
LABEL_BATCH=${LABEL_BATCH:-128}
RUNS=runs/parser/ud_ewt
TEACHER=$RUNS/minilm_teacher
SILVER=$RUNS/silver
EWT=$DATA/ud/UD_English-EWT/en_ewt-ud-
mkdir -p "$SILVER"
export GREEN_NLP_DATA=$DATA

# 1. the teacher (resumed when its folder exists)
if [ ! -f "$TEACHER/model.tar.gz" ]; then
  resume=()
  [ -d "$TEACHER" ] && resume=(-r)
  limit=()
  [ -n "${TEACHER_MINUTES:-}" ] && limit=(timeout --signal=INT "$((TEACHER_MINUTES * 60))")
  overrides="{\"trainer.cuda_device\": $CUDA_DEVICE${TEACHER_EPOCHS:+, \"trainer.num_epochs\": $TEACHER_EPOCHS}}"
  start=$(date +%s)
  "${limit[@]}" allennlp train training_configs/parser/ud_ewt_minilm_teacher.jsonnet -s "$TEACHER" "${resume[@]}" \
    -o "$overrides" || echo "teacher training stopped: $?"
  echo "{\"teacher_train_seconds\": $(($(date +%s) - start))}" >"$TEACHER/train_seconds.json"
  if [ ! -f "$TEACHER/model.tar.gz" ]; then
    # stopped by the time limit: archive the best epoch so far
    python -c "from allennlp.models.archival import archive_model; archive_model('$TEACHER')"
  fi
fi
sha256sum "$TEACHER/model.tar.gz" | cut -d' ' -f1 >"$TEACHER/model.tar.gz.sha256"

# 2. its scores from gold tokens
for split in dev test; do
  [ -f "$TEACHER/evaluate_$split.json" ] || allennlp evaluate "$TEACHER/model.tar.gz" "$EWT$split.conllu" \
    --cuda-device "$CUDA_DEVICE" --output-file "$TEACHER/evaluate_$split.json"
done

# 3. silver: EWT train's raw sentences, then the IMDB reviews in shards, all at once
python - "$EWT"train.conllu "$SILVER/ewt_train.txt" <<'EOF'
import sys
with open(sys.argv[1], encoding="utf-8") as conllu, open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in conllu:
        if line.startswith("# text = "):
            out.write(line[len("# text = "):].strip() + "\n")
EOF
label() {
  allennlp green-label-teacher "$TEACHER/model.tar.gz" "$@" --cuda-device "$CUDA_DEVICE" --batch-size "$LABEL_BATCH" \
    --top-k-heads "$TOP_K_HEADS" --top-k-labels "$TOP_K_LABELS"
}
start=$(date +%s)
label "$SILVER/ewt_train.txt" --format lines --output "$SILVER/ewt_train.jsonl" >"$SILVER/ewt_train.log" 2>&1 &
for ((i = 0; i < IMDB_SHARDS; i++)); do
  label "$DATA/cls/imdb/train_unsup.jsonl.gz" --max-examples-per-input "$IMDB_REVIEWS" --shard "$i/$IMDB_SHARDS" \
    --output "$SILVER/imdb_unsup.shard$i.jsonl" >"$SILVER/imdb_unsup.shard$i.log" 2>&1 &
done
failed=0
for job in $(jobs -p); do wait "$job" || failed=$((failed + 1)); done
[ "$failed" = 0 ] || echo "$failed labelling processes failed: see $SILVER/*.log"
echo "{\"label_seconds\": $(($(date +%s) - start)), \"processes\": $((IMDB_SHARDS + 1))}" >"$SILVER/label_seconds.json"
wc -l "$SILVER"/*.jsonl
