// The green_distillation callback over the 4 cross-fitting EWT teachers (fold_teacher.jsonnet),
// listed in fold order: archive i was trained without fold i.
{
  callbacks: [{
    type: 'green_distillation',
    cross_fit_teacher_archives: ['runs/parser/ud_ewt/fold_teachers/fold%d/model.tar.gz' % fold
                                 for fold in std.range(0, 3)],
  }],
}
