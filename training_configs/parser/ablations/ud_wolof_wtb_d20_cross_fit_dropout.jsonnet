// Ablation beyond the paper: ud_wolof_wtb_d20_cross_fit (targets from the 5 cross-fitting teachers)
// keeping the teacher's dropout (0.33), so it differs from the B-20 baseline only in the KL terms.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Wolof-WTB/wo_wtb-ud-';
local cross_fit = import 'ud_wolof_wtb_d20_cross_fit.jsonnet';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_wolof_wtb.json').students['20'],
  teacher_archive='runs/parser/ud_wolof_wtb/teacher/model.tar.gz',
  distilled=true,
  dropout=0.33,
) + { trainer+: { callbacks: cross_fit.trainer.callbacks } }
