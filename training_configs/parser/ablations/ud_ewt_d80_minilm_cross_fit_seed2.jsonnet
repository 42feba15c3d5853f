// A second seed of ud_ewt_d80_minilm_cross_fit; the same seeds as ud_ewt_b80_seed2.
(import 'ud_ewt_d80_minilm_cross_fit.jsonnet') + { random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233 }
