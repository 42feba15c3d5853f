// A student of one treebank's teacher, picked by four Jsonnet external variables (AllenNLP passes the
// environment to Jsonnet, and Jsonnet has no default for a missing one, so all four are needed):
//   TREEBANK   ud_ewt | ud_wolof_wtb | ud_tamil_ttb | ud_chinese_gsd_v1_3
//   SIZE       20 | 40 | 60 | 80: % of the teacher's trainable parameters (dims in student_sizes/<TREEBANK>.json)
//   DISTILLED  true: D-<SIZE>, distilled from the teacher (KL + CE, dropout off; the seed paper's equation 3)
//              false: B-<SIZE>, the equal-size baseline trained without a teacher (the teacher's dropout)
//   SEED       1 (AllenNLP's default seeds) | 2 | 3
// Both read the teacher's vocabulary from runs/parser/<TREEBANK>/teacher/model.tar.gz, so label indices match:
//   TREEBANK=ud_ewt SIZE=20 DISTILLED=true SEED=1 allennlp train training_configs/parser/student.jsonnet \
//     -s runs/parser/ud_ewt/d20 --include-package green_nlp
// More epochs, another teacher archive: -o '{"trainer.num_epochs": 24}' and the like.
local treebanks = import 'treebanks.libsonnet';

treebanks.student(
  treebank=std.extVar('TREEBANK'),
  size=std.extVar('SIZE'),
  distilled=treebanks.choose('DISTILLED', { 'true': true, 'false': false }, std.extVar('DISTILLED')),
  seed=std.extVar('SEED'),
)
