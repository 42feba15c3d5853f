// A second seed of ud_wolof_wtb_d20_cross_fit (AllenNLP's three seeds changed from their defaults),
// to tell the cross-fitting gain from seed noise; beside ud_wolof_wtb_b20_seed2.
(import 'ud_wolof_wtb_d20_cross_fit.jsonnet') + { random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233 }
