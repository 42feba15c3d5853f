// B-40: UD Wolof-WTB student with 40 % of the teacher's trainable parameters,
// trained without a teacher (equal-size baseline).
// Sizes: ../student_sizes/ud_wolof_wtb.json (python -m green_nlp.training.student_sizing).
// The teacher archive is expected at runs/parser/ud_wolof_wtb/teacher/model.tar.gz.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Wolof-WTB/wo_wtb-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_wolof_wtb.json').students['40'],
  teacher_archive='runs/parser/ud_wolof_wtb/teacher/model.tar.gz',
  distilled=false,
)
