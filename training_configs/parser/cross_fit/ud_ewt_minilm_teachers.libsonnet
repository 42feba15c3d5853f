// The green_distillation callback over the 2 cross-fitting MiniLM teachers of EWT
// (ud_ewt_minilm_fold_teacher.jsonnet), in fold order: archive i was trained without fold i.
{
  callbacks: [{
    type: 'green_distillation',
    cross_fit_teacher_archives: ['runs/parser/ud_ewt/minilm_fold_teachers/fold%d/model.tar.gz' % fold
                                 for fold in std.range(0, 1)],
  }],
}
