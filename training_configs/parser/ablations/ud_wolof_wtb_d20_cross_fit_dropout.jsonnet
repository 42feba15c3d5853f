// Ablation beyond the paper: ud_wolof_wtb_d20_cross_fit (targets from the 5 cross-fitting teachers)
// keeping the teacher's dropout (0.33), so it differs from the B-20 baseline only in the KL terms.
(import 'ud_wolof_wtb_d20_dropout.jsonnet') + { trainer+: import '../cross_fit/ud_wolof_wtb_teachers.libsonnet' }
