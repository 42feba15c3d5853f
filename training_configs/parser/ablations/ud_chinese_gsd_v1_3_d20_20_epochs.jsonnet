// Training budget: D-20 on UD Chinese-GSD v1.3 with 20 epochs instead of the 10 that capped the
// Chinese students (the teacher trained 29; four of the eight had their best dev LAS in the last one),
// to see whether more epochs close the gap between distilled and teacherless students there.
(import '../students/ud_chinese_gsd_v1_3_d20.jsonnet') + { trainer+: { num_epochs: 20 } }
