// Ablation beyond the paper: D-20 on UD Chinese-GSD v1.3 distilled like ud_chinese_gsd_v1_3_d20 but
// keeping the teacher's dropout (0.33), so it differs from B-20 only in the teacher's loss terms;
// 20 epochs, to set beside d20_20_epochs and b20_20_epochs (on Wolof, dropout kept was what let
// D-20 catch up with B-20 given 60 epochs).
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Chinese-GSD_v1.3/zh-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_chinese_gsd_v1_3.json').students['20'],
  teacher_archive='runs/parser/ud_chinese_gsd_v1_3/teacher/model.tar.gz',
  distilled=true,
  dropout=0.33,
) + { trainer+: { num_epochs: 20 } }
