// A second seed of the B-20 baseline (../students/ud_ewt_b20, no teacher), with the seeds of
// ud_ewt_d20_cross_fit_seed2. The vocabulary is the teacher's, read from its run folder (as the
// cross-fit students do), so it trains without the teacher's archive.
(import '../students/ud_ewt_b20.jsonnet') + {
  vocabulary: { type: 'from_files', directory: 'runs/parser/ud_ewt/teacher/vocabulary' },
  random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233,
}
