// Training budget: B-20 (no teacher) with up to 60 epochs instead of the 20 that capped
// the Wolof students (early stopping after 10 epochs without a better dev LAS, as configured), to
// see whether distillation needs more epochs than the baseline to pay off. The paper trains up to 100.
(import '../students/ud_wolof_wtb_b20.jsonnet') + { trainer+: { num_epochs: 60 } }
