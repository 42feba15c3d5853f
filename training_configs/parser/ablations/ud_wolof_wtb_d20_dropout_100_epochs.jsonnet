// Training budget: D-20 keeping the teacher's dropout (d20_dropout) with up to 100 epochs, the
// paper's cap (its 60-epoch run was still improving at epoch 57). The B-20 baseline needs no
// 100-epoch run: with up to 60 it stopped early after 46 epochs (best 36).
(import 'ud_wolof_wtb_d20_dropout.jsonnet') + { trainer+: { num_epochs: 100 } }
