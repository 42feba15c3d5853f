// A second seed of ud_ewt_d40_cross_fit; beside ud_ewt_b40_seed2, which has the same seeds.
(import 'ud_ewt_d40_cross_fit.jsonnet') + { random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233 }
