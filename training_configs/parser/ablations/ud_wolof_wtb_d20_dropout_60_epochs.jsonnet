// Training budget: D-20 keeping the teacher's dropout (d20_dropout) with up to 60 epochs instead of the 20 that capped
// the Wolof students (early stopping after 10 epochs without a better dev LAS, as configured), to
// see whether distillation needs more epochs than the baseline to pay off. The paper trains up to 100.
(import 'ud_wolof_wtb_d20_dropout.jsonnet') + { trainer+: { num_epochs: 60 } }
