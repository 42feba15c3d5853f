// Training budget: D-20 on UD English-EWT with up to 24 epochs instead of the teacher's 16 that
// capped the EWT students (their best dev LAS came in the last epochs), to see whether the 20 %
// students, distilled or not, were still short of what they can reach. The paper trains up to 100.
(import '../students/ud_ewt_d20.jsonnet') + { trainer+: { num_epochs: 24 } }
