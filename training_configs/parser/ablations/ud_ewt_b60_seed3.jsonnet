// A third seed of the B-60 baseline, with the seeds of ud_ewt_d60_minilm_cross_fit_seed3.
(import 'ud_ewt_b60_seed2.jsonnet') + { random_seed: 31337, numpy_seed: 3133, pytorch_seed: 313 }
