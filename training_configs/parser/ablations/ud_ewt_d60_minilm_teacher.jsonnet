// D-60 of UD English-EWT distilled from the MiniLM teacher; see ud_ewt_minilm_students.libsonnet.
(import 'ud_ewt_minilm_students.libsonnet').distilled_from_minilm(import '../students/ud_ewt_d60.jsonnet')
