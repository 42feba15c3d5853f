// D-20 of UD English-EWT distilled from the 2 cross-fitting MiniLM teachers
// (../cross_fit/ud_ewt_minilm_fold_teacher.jsonnet): every training sentence gets its soft targets from
// the MiniLM teacher that did not train on it. Otherwise as ud_ewt_d20_minilm_teacher (paper-style D-20,
// dropout off, the BiLSTM teacher's vocabulary; the training reader also yields the word pieces).
(import 'ud_ewt_minilm_students.libsonnet').distilled_from_minilm(import '../students/ud_ewt_d20.jsonnet') + {
  trainer+: import '../cross_fit/ud_ewt_minilm_teachers.libsonnet',
}
