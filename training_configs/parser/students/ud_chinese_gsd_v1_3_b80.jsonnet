// B-80: UD Chinese-GSD v1.3 student with 80 % of the teacher's trainable parameters,
// trained without a teacher (equal-size baseline).
// Sizes: ../student_sizes/ud_chinese_gsd_v1_3.json (python -m green_nlp.training.student_sizing).
// The teacher archive is expected at runs/parser/ud_chinese_gsd_v1_3/teacher/model.tar.gz.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Chinese-GSD_v1.3/zh-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_chinese_gsd_v1_3.json').students['80'],
  teacher_archive='runs/parser/ud_chinese_gsd_v1_3/teacher/model.tar.gz',
  distilled=false,
)
