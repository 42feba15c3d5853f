// D-60: UD Wolof-WTB student with 60 % of the teacher's trainable parameters,
// distilled from the teacher (KL + CE, dropout off).
// Sizes: ../student_sizes/ud_wolof_wtb.json (python -m green_nlp.training.student_sizing).
// The teacher archive is expected at runs/parser/ud_wolof_wtb/teacher/model.tar.gz.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Wolof-WTB/wo_wtb-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_wolof_wtb.json').students['60'],
  teacher_archive='runs/parser/ud_wolof_wtb/teacher/model.tar.gz',
  distilled=true,
)
