// A third seed of ud_ewt_d40_cross_fit; beside ud_ewt_b40_seed3, which has the same seeds.
(import 'ud_ewt_d40_cross_fit.jsonnet') + { random_seed: 31337, numpy_seed: 3133, pytorch_seed: 313 }
