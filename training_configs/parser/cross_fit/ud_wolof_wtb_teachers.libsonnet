// The green_distillation callback over the 5 cross-fitting Wolof teachers (fold_teacher.jsonnet),
// listed in fold order: archive i was trained without fold i.
{
  callbacks: [{
    type: 'green_distillation',
    cross_fit_teacher_archives: ['runs/parser/ud_wolof_wtb/fold_teachers/fold%d/model.tar.gz' % fold
                                 for fold in std.range(0, 4)],
  }],
}
