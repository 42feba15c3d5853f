#!/usr/bin/env bash
# Ablations of student distillation (the runs <treebank>_<name> of experiments/parser/variants.libsonnet),
# each trained like the treebank's paper-style students (same EPOCHS cap, unless the config sets its
# own num_epochs), then scored beside them.
#   bash experiments/parser/run_ablations.sh [ud_wolof_wtb ...]   (default: ud_wolof_wtb)
# A finished run (model.tar.gz) is skipped; an interrupted one is resumed with -r.
# EWT was run with EPOCHS=16 (its students' cap); its two 24-epoch budget runs were continued with -r
# from copies of the 16-epoch D-20 and B-20 runs (num_epochs set to 24 in the copy's config.json,
# which -r compares against), the same schedule as training them to 24 from the start.
# Chinese-GSD v1.3's two 20-epoch runs were continued the same way from its 10-epoch D-20 and B-20;
# its d<x>_dropout runs were trained with EPOCHS=10 (its students' cap), two chains side by side:
#   EPOCHS=10 SCORE=0 NAMES="d40_dropout d60_dropout" bash experiments/parser/run_ablations.sh ud_chinese_gsd_v1_3
#   EPOCHS=10 SCORE=0 NAMES="d80_dropout d20_dropout" bash experiments/parser/run_ablations.sh ud_chinese_gsd_v1_3
# then python -m experiments.parser.ablations --treebanks UD_Chinese-GSD_v1.3
# EWT's seed runs (<name>_seed2/3: the same config under other seeds), chains side by side, then scored with
# python -m experiments.parser.ablations --treebanks UD_English-EWT --same-teacher-run:
#   EPOCHS=16 SCORE=0 NAMES="d20_cross_fit_seed2 d80_cross_fit" bash experiments/parser/run_ablations.sh ud_ewt
#   EPOCHS=16 SCORE=0 NAMES="b20_seed2 b20_seed3 d20_cross_fit_seed3" bash experiments/parser/run_ablations.sh ud_ewt
#   (then b40_seed2 b40_seed3 beside d40_cross_fit_seed2 d40_cross_fit_seed3 the same way)
# EWT's MiniLM teacher (6 epochs, its own count) on both threads, then its D-x students, two chains side by side:
#   THREADS=2 SCORE=0 NAMES=minilm_teacher bash experiments/parser/run_ablations.sh ud_ewt
#   EPOCHS=16 SCORE=0 NAMES="d20_minilm_teacher d60_minilm_teacher" bash experiments/parser/run_ablations.sh ud_ewt
#   EPOCHS=16 SCORE=0 NAMES="d40_minilm_teacher d80_minilm_teacher" bash experiments/parser/run_ablations.sh ud_ewt
#   (D-20 and D-40 were run; D-60 and D-80 gave way to the MiniLM cross-fitting students, see parser_cross_fit.sh)
# Later, seeds 2 and 3 of the D-20 from the MiniLM fold teachers side by side, then D-60 from them (D-80 stopped
# in its first epoch to make room for the transfer-set students, parser_transfer.sh):
#   EPOCHS=16 SCORE=0 NAMES="d20_minilm_cross_fit_seed2 d60_minilm_cross_fit" bash experiments/parser/run_ablations.sh ud_ewt
#   EPOCHS=16 SCORE=0 NAMES="d20_minilm_cross_fit_seed3 d80_minilm_cross_fit" bash experiments/parser/run_ablations.sh ud_ewt
# Then seeds 2 and 3 of D-60 from the MiniLM fold teachers and of B-60, two chains side by side (each chain
# trains its B-60 first, in the order of the config files):
#   EPOCHS=16 SCORE=0 NAMES="d60_minilm_cross_fit_seed2 b60_seed3" bash experiments/parser/run_ablations.sh ud_ewt
#   EPOCHS=16 SCORE=0 NAMES="b60_seed2 d60_minilm_cross_fit_seed3" bash experiments/parser/run_ablations.sh ud_ewt
# Then, in fresh run folders (the teacher's vocabulary rebuilt with allennlp build-vocab, the MiniLM fold
# teachers retrained with parser_cross_fit.sh), seeds 2 and 3 of D-40 from the MiniLM fold teachers and second
# seeds of D-80 from them and of B-80, two chains side by side (chain 2 trains its B-80 first):
#   EPOCHS=16 SCORE=0 NAMES="d40_minilm_cross_fit_seed2 d80_minilm_cross_fit_seed2" bash experiments/parser/run_ablations.sh ud_ewt
#   EPOCHS=16 SCORE=0 NAMES="d40_minilm_cross_fit_seed3 b80_seed2" bash experiments/parser/run_ablations.sh ud_ewt
set -euo pipefail
cd "$(dirname "$0")/../.."
source .venv/bin/activate
THREADS=${THREADS:-1}  # per run; two runs side by side on 2 cores keep the default
export OMP_NUM_THREADS=$THREADS MKL_NUM_THREADS=$THREADS
EPOCHS=${EPOCHS:-20}
NAMES=${NAMES:-}   # only these ablations (names without the treebank prefix); default: all of the treebank's
SCORE=${SCORE:-1}  # 0: train only (for chains run side by side; score once when all are done)

declare -A TREEBANK_NAME=([ud_tamil_ttb]=UD_Tamil-TTB [ud_wolof_wtb]=UD_Wolof-WTB [ud_ewt]=UD_English-EWT
                          [ud_chinese_gsd_v1_3]=UD_Chinese-GSD_v1.3)
for treebank in ${@:-ud_wolof_wtb}; do
  # one line per run of the treebank: its name and whether it keeps its own epoch count (own) or takes EPOCHS
  while read -r name epoch_count; do
    if [ -n "$NAMES" ] && [[ " $NAMES " != *" $name "* ]]; then continue; fi
    dir=runs/parser/$treebank/ablations/$name
    # a killed run also leaves a model.tar.gz (AllenNLP archives its best epoch on SIGTERM); only a
    # finished one has metrics.json
    if [ -f "$dir/metrics.json" ] && [ -f "$dir/model.tar.gz" ]; then echo "done: $dir"; continue; fi
    resume=""; [ -d "$dir" ] && resume="-r"
    mkdir -p "$(dirname "$dir")"
    echo "== $dir $(date -u +%FT%TZ)"
    # a training-budget run, the MiniLM teacher and the transfer-set students keep their own epoch count
    epochs='{"trainer.num_epochs": '$EPOCHS'}'; [ "$epoch_count" = own ] && epochs='{}'
    ABLATION=${treebank}_$name allennlp train experiments/parser/ablation.jsonnet -s "$dir" $resume -o "$epochs" \
      --include-package green_nlp < /dev/null > "$dir.log" 2>&1
  done < <(python -m experiments.parser.variants "$treebank")
  if [ "$SCORE" = 1 ]; then python -m experiments.parser.ablations --treebanks "${TREEBANK_NAME[$treebank]}"; fi
done
