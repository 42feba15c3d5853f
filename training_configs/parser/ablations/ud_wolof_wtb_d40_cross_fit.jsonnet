// Ablation beyond the paper: D-40 on UD Wolof-WTB distilled from the 5 cross-fitting teachers, as
// ud_wolof_wtb_d20_cross_fit is for D-20 (otherwise as ../students/ud_wolof_wtb_d40, dropout off).
(import '../students/ud_wolof_wtb_d40.jsonnet') + { trainer+: import '../cross_fit/ud_wolof_wtb_teachers.libsonnet' }
