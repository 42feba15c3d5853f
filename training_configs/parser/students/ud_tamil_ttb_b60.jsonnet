// B-60: UD Tamil-TTB student with 60 % of the teacher's trainable parameters,
// trained without a teacher (equal-size baseline).
// Sizes: ../student_sizes/ud_tamil_ttb.json (python -m green_nlp.training.student_sizing).
// The teacher archive is expected at runs/parser/ud_tamil_ttb/teacher/model.tar.gz.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Tamil-TTB/ta_ttb-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_tamil_ttb.json').students['60'],
  teacher_archive='runs/parser/ud_tamil_ttb/teacher/model.tar.gz',
  distilled=false,
)
