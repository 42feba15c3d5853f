// A cross-fitting teacher of the parser studies, named by the external variable FOLD_TEACHERS
// (ud_ewt | ud_wolof_wtb | ud_ewt_minilm, see variants.libsonnet); train one per fold:
//   FOLD_TEACHERS=ud_wolof_wtb allennlp train experiments/parser/fold_teacher.jsonnet \
//     -s runs/parser/ud_wolof_wtb/fold_teachers/fold2 -o '{"dataset_reader.leave_out_fold": 2}' \
//     --include-package green_nlp
local teachers = (import 'variants.libsonnet').fold_teachers;
local name = std.extVar('FOLD_TEACHERS');
if std.objectHas(teachers, name) then teachers[name]
else error 'FOLD_TEACHERS must be one of ' + std.join(', ', std.objectFields(teachers)) + ', not ' + name
