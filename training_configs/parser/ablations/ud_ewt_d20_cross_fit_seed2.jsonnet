// A second seed of ud_ewt_d20_cross_fit (AllenNLP's three seeds changed from their defaults), to
// tell the cross-fitting result from seed noise; beside ud_ewt_b20_seed2, which has the same seeds.
(import 'ud_ewt_d20_cross_fit.jsonnet') + { random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233 }
