// Ablation beyond the paper: D-40 on UD English-EWT distilled from 4 cross-fitting teachers
// (../cross_fit/ud_ewt_fold_teacher.jsonnet) instead of the full teacher, so that every training
// sentence gets its soft targets from the teacher that did not train on it (see
// ud_wolof_wtb_d20_cross_fit.jsonnet for why). Otherwise as ud_ewt_d40 (dropout off); the
// vocabulary is the full teacher's, read from its run folder like the fold teachers'.
(import '../students/ud_ewt_d40.jsonnet') + {
  vocabulary: { type: 'from_files', directory: 'runs/parser/ud_ewt/teacher/vocabulary' },
  trainer+: import '../cross_fit/ud_ewt_teachers.libsonnet',
}
