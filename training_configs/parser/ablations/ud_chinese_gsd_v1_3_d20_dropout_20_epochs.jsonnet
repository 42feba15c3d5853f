// Ablation beyond the paper: d20_dropout (D-20 keeping the teacher's dropout) on UD Chinese-GSD
// v1.3 with 20 epochs, to set beside d20_20_epochs and b20_20_epochs (on Wolof, dropout kept was
// what let D-20 catch up with B-20 given 60 epochs).
(import 'ud_chinese_gsd_v1_3_d20_dropout.jsonnet') + { trainer+: { num_epochs: 20 } }
