// A third seed of ud_ewt_d40_minilm_cross_fit; the same seeds as ud_ewt_b40_seed3.
(import 'ud_ewt_d40_minilm_cross_fit.jsonnet') + { random_seed: 31337, numpy_seed: 3133, pytorch_seed: 313 }
