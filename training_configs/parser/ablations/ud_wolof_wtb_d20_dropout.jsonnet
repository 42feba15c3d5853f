// Ablation beyond the paper: D-20 on UD Wolof-WTB distilled like ud_wolof_wtb_d20 (KL + CE from
// the same teacher) but keeping the teacher's dropout (0.33) instead of switching it off, so it
// differs from the B-20 baseline only in the teacher's loss terms.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Wolof-WTB/wo_wtb-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_wolof_wtb.json').students['20'],
  teacher_archive='runs/parser/ud_wolof_wtb/teacher/model.tar.gz',
  distilled=true,
  dropout=0.33,
)
