// A second seed of ud_ewt_d20_minilm_cross_fit (AllenNLP's three seeds changed from their defaults), to
// tell its gain over B-20 from seed noise; the same seeds as ud_ewt_b20_seed2 and ud_ewt_d20_cross_fit_seed2.
(import 'ud_ewt_d20_minilm_cross_fit.jsonnet') + { random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233 }
