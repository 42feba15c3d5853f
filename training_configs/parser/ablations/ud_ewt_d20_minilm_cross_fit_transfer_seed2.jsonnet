// A second seed of ud_ewt_d20_minilm_cross_fit_transfer; the same seeds as ud_ewt_b20_seed2.
(import 'ud_ewt_d20_minilm_cross_fit_transfer.jsonnet') + { random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233 }
