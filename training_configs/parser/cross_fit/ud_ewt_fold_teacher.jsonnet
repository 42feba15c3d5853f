// A cross-fitting teacher for UD English-EWT: the teacher's config (ud_ewt.jsonnet) trained on the
// training set minus one of 4 folds, so that it can give soft targets on that fold's sentences
// without having seen their trees. 4 folds rather than Wolof's 5: on a 2-core CPU the four fold
// teachers train as two pairs side by side. Train one per fold, overriding the fold:
//   allennlp train training_configs/parser/cross_fit/ud_ewt_fold_teacher.jsonnet \
//     -s runs/parser/ud_ewt/fold_teachers/fold2 -o '{"dataset_reader.leave_out_fold": 2}' \
//     --include-package green_nlp
// All folds share the full teacher's vocabulary (written to its run folder when its training
// starts), so label indices agree with the teacher and its students.
local teacher = import '../ud_ewt.jsonnet';
teacher + {
  dataset_reader+: { cross_fit_folds: 4, leave_out_fold: 0 },
  vocabulary: { type: 'from_files', directory: 'runs/parser/ud_ewt/teacher/vocabulary' },
}
