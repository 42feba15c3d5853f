#!/usr/bin/env bash
# Cross-fitting teachers (an ablation beyond the paper), for UD Wolof-WTB (5 folds) or UD English-EWT
# (4 folds; TREEBANK=ud_ewt). Wolof: 5 fold teachers, each
# trained without one fold of the training set, for the students whose soft targets on every
# training sentence come from the teacher that did not see it
# (the ud_wolof_wtb_d<x>_cross_fit* runs of experiments/parser/variants.libsonnet). Start it once the full
# teacher's run (runs/parser/ud_wolof_wtb/teacher, parser_small_treebanks.sh) has begun: the fold
# teachers share its vocabulary.
#   FOLDS="0 1 2" bash experiments/parser/run_cross_fit.sh   (default: all 5, one after another)
# Epochs are capped at 40 like the full teacher's; a finished run is skipped and an interrupted one
# resumed with -r. Then the students, the equal-size students without a teacher beside them (with
# this teacher's vocabulary), and their scores (run as two chains side by side, SCORE=0 each, then
# the scoring once; --keep-earlier keeps the ablations of an earlier teacher run as their own set):
#   NAMES="d20_cross_fit d20_cross_fit_dropout d40_cross_fit d60_cross_fit d80_cross_fit \
#          d20_cross_fit_seed2 b20_seed2 d20_dropout" SCORE=0 bash experiments/parser/run_ablations.sh ud_wolof_wtb
#   STUDENTS="d20 b20 b40 b60 b80" EPOCHS=20 BENCH=0 bash benchmarks/runs/parser_small_treebanks.sh ud_wolof_wtb
#   python -m experiments.parser.ablations --treebanks UD_Wolof-WTB --keep-earlier
#   python -m experiments.parser.teacher_targets --treebanks UD_Wolof-WTB UD_Tamil-TTB
# (its Tamil row: the Tamil teacher retrained by parser_small_treebanks.sh ud_tamil_ttb, EPOCHS=40)
# (The fold teachers were run on 2 cores as FOLDS="3 4" beside the full teacher, then FOLDS="0 1"
# and FOLDS="2" side by side. Never run two chains that share a fold: both would write to its run
# folder.)
# EWT (14 epochs each, the full teacher's 16 less two, to fit the CPU time): the fold teachers need the
# teacher's vocabulary at runs/parser/ud_ewt/teacher/vocabulary. Its run was gone, so it was rebuilt
# from the teacher's config, which reads the same files the same way:
#   allennlp build-vocab training_configs/parser/ud_ewt.jsonnet runs/parser/ud_ewt/teacher_vocabulary.tar.gz \
#     --include-package green_nlp   (then unpacked into runs/parser/ud_ewt/teacher/vocabulary)
#   TREEBANK=ud_ewt FOLDS="0 2" bash experiments/parser/run_cross_fit.sh   (beside FOLDS="1 3")
#   EPOCHS=16 SCORE=0 NAMES=d20_cross_fit bash experiments/parser/run_ablations.sh ud_ewt   (beside d40_cross_fit)
#   python -m experiments.parser.ablations --treebanks UD_English-EWT --same-teacher-run
#   python -m experiments.parser.teacher_targets --treebanks UD_English-EWT
# EWT's MiniLM fold teachers (2 folds, 6 epochs like the MiniLM teacher; one thread each, side by side),
# then the D-20 and D-40 students distilled from them, side by side:
#   TREEBANK=ud_ewt TEACHER=minilm FOLDS=0 bash experiments/parser/run_cross_fit.sh   (beside FOLDS=1)
#   EPOCHS=16 SCORE=0 NAMES=d20_minilm_cross_fit bash experiments/parser/run_ablations.sh ud_ewt   (beside d40_minilm_cross_fit)
set -euo pipefail
cd "$(dirname "$0")/../.."
source .venv/bin/activate
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
TREEBANK=${TREEBANK:-ud_wolof_wtb}
TEACHER=${TEACHER:-}  # minilm: EWT's MiniLM fold teachers instead of the BiLSTM ones
case $TREEBANK${TEACHER:+_$TEACHER} in
  ud_wolof_wtb) all_folds="0 1 2 3 4"; epochs=${EPOCHS:-40} ;;
  ud_ewt) all_folds="0 1 2 3"; epochs=${EPOCHS:-14} ;;
  ud_ewt_minilm) all_folds="0 1"; epochs=${EPOCHS:-6} ;;
  *) echo "no cross-fitting config for $TREEBANK ${TEACHER}" >&2; exit 2 ;;
esac
config=experiments/parser/fold_teacher.jsonnet
export FOLD_TEACHERS=${TREEBANK}${TEACHER:+_$TEACHER}  # which set of fold teachers (variants.libsonnet)
root=runs/parser/$TREEBANK/${TEACHER:+${TEACHER}_}fold_teachers
mkdir -p "$root"
for fold in ${FOLDS:-$all_folds}; do
  dir=$root/fold$fold
  if [ -f "$dir/metrics.json" ] && [ -f "$dir/model.tar.gz" ]; then echo "done: $dir"; continue; fi
  resume=""; [ -d "$dir" ] && resume="-r"
  echo "== $dir $(date -u +%FT%TZ)"
  allennlp train "$config" -s "$dir" $resume \
    -o "{\"trainer.num_epochs\": $epochs, \"dataset_reader.leave_out_fold\": $fold}" --include-package green_nlp \
    > "$dir.log" 2>&1
done
