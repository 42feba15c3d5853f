// A cross-fitting teacher for UD Wolof-WTB: the teacher's config (ud_wolof_wtb.jsonnet) trained on
// the training set minus one of 5 folds, so that it can give soft targets on that fold's sentences
// without having seen their trees. Train one per fold, overriding the fold:
//   allennlp train training_configs/parser/cross_fit/ud_wolof_wtb_fold_teacher.jsonnet \
//     -s runs/parser/ud_wolof_wtb/fold_teachers/fold2 -o '{"dataset_reader.leave_out_fold": 2}' \
//     --include-package green_nlp
// All folds share the full teacher's vocabulary (written to its run folder when its training
// starts), so label indices agree with the teacher and its students.
local teacher = import '../ud_wolof_wtb.jsonnet';
teacher + {
  dataset_reader+: { cross_fit_folds: 5, leave_out_fold: 0 },
  vocabulary: { type: 'from_files', directory: 'runs/parser/ud_wolof_wtb/teacher/vocabulary' },
}
