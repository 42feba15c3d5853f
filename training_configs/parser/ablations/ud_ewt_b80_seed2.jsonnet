// A second seed of the B-80 baseline (../students/ud_ewt_b80, no teacher), with the seeds of
// ud_ewt_d80_minilm_cross_fit_seed2 and the teacher's vocabulary from its run folder (as ud_ewt_b20_seed2).
(import '../students/ud_ewt_b80.jsonnet') + {
  vocabulary: { type: 'from_files', directory: 'runs/parser/ud_ewt/teacher/vocabulary' },
  random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233,
}
