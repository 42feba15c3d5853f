// A cross-fitting MiniLM teacher for UD English-EWT: ../ablations/ud_ewt_minilm_teacher.jsonnet trained
// on the training set minus one of 2 folds. The MiniLM teacher's soft targets on its own training set
// are as near one-hot as the BiLSTM teacher's (benchmarks/parser_teacher_targets.py), so its extra
// dev LAS never reaches a student distilled there; a fold teacher gives the other half's sentences
// targets from a teacher that did not see their trees. 2 folds rather than the BiLSTM teachers' 4: on a
// 2-core CPU the two fine-tune side by side (one thread each) in about the full teacher's time.
//   TREEBANK=ud_ewt TEACHER=minilm bash benchmarks/runs/parser_cross_fit.sh
// Shares the BiLSTM teacher's vocabulary (read from its run folder), like the teacher it varies.
(import '../ablations/ud_ewt_minilm_teacher.jsonnet') + {
  dataset_reader+: { cross_fit_folds: 2, leave_out_fold: 0 },
}
