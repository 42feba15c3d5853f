// D-60 of UD English-EWT distilled from the 2 cross-fitting MiniLM teachers; see ud_ewt_d20_minilm_cross_fit.jsonnet.
(import 'ud_ewt_minilm_students.libsonnet').distilled_from_minilm(import '../students/ud_ewt_d60.jsonnet') + {
  trainer+: import '../cross_fit/ud_ewt_minilm_teachers.libsonnet',
}
