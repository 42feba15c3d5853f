// A second seed of the B-60 baseline (../students/ud_ewt_b60, no teacher), with the seeds of
// ud_ewt_d60_minilm_cross_fit_seed2, to tell D-60's gain over B-60 from seed noise. The vocabulary is
// the teacher's, read from its run folder, so it trains without the teacher's archive.
(import '../students/ud_ewt_b60.jsonnet') + {
  vocabulary: { type: 'from_files', directory: 'runs/parser/ud_ewt/teacher/vocabulary' },
  random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233,
}
