// Ablation beyond the paper: D-20 on UD Wolof-WTB that keeps the teacher's dropout (as d20_dropout)
// and softens both distributions with temperature 2 (KL scaled by T^2), so the
// teacher's second-best heads and labels weigh more.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Wolof-WTB/wo_wtb-ud-';
local teacher = 'runs/parser/ud_wolof_wtb/teacher/model.tar.gz';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_wolof_wtb.json').students['20'],
  teacher_archive=teacher,
  distilled=true,
  dropout=0.33,
) + {
  trainer+: { callbacks: [{ type: 'green_distillation', teacher_archive: teacher, temperature: 2.0 }] },
}
