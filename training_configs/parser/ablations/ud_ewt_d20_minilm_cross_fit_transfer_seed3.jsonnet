// A third seed of ud_ewt_d20_minilm_cross_fit_transfer; the same seeds as ud_ewt_b20_seed3.
(import 'ud_ewt_d20_minilm_cross_fit_transfer.jsonnet') + { random_seed: 31337, numpy_seed: 3133, pytorch_seed: 313 }
