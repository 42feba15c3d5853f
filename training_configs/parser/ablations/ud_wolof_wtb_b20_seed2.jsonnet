// A second seed of the B-20 baseline (../students/ud_wolof_wtb_b20, no teacher), with the seeds of
// ud_wolof_wtb_d20_cross_fit_seed2.
(import '../students/ud_wolof_wtb_b20.jsonnet') + { random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233 }
