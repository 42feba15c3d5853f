// Ablation beyond the paper: D-80 on UD Wolof-WTB distilled from the 5 cross-fitting teachers, as
// ud_wolof_wtb_d20_cross_fit is for D-20 (otherwise as ../students/ud_wolof_wtb_d80, dropout off).
(import '../students/ud_wolof_wtb_d80.jsonnet') + { trainer+: import '../cross_fit/ud_wolof_wtb_teachers.libsonnet' }
