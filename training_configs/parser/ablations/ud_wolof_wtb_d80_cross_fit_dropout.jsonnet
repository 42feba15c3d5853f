// Ablation beyond the paper: D-80 distilled from the 5 cross-fitting Wolof teachers keeping the
// teacher's dropout (0.33), as ud_wolof_wtb_d20_cross_fit_dropout is for D-20.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Wolof-WTB/wo_wtb-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_wolof_wtb.json').students['80'],
  teacher_archive='runs/parser/ud_wolof_wtb/teacher/model.tar.gz',
  distilled=true,
  dropout=0.33,
) + { trainer+: import '../cross_fit/ud_wolof_wtb_teachers.libsonnet' }
