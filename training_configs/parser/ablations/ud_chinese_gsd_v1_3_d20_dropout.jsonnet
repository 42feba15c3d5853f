// Ablation beyond the paper: D-20 on UD Chinese-GSD v1.3 distilled like ud_chinese_gsd_v1_3_d20 but
// keeping the teacher's dropout (0.33), so it differs from B-20 only in the teacher's loss terms.
// Trained with the Chinese students' cap (EPOCHS=10 in benchmarks/runs/parser_ablations.sh): the
// teacher fits its training sentences almost exactly (benchmarks/parser_teacher_targets.py), so
// with dropout off a distilled student loses the regularization its baseline has and gains little.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Chinese-GSD_v1.3/zh-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_chinese_gsd_v1_3.json').students['20'],
  teacher_archive='runs/parser/ud_chinese_gsd_v1_3/teacher/model.tar.gz',
  distilled=true,
  dropout=0.33,
)
