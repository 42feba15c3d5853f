// D-x students of UD English-EWT distilled from the MiniLM teacher (ud_ewt_minilm_teacher.jsonnet)
// instead of the BiLSTM one. Everything else is the paper-style D-x (../students/ud_ewt_d<x>.jsonnet:
// same sizes, dropout off, 16 epochs) with the BiLSTM teacher's vocabulary, so they compare with the
// B-x students directly. The training reader also yields the teacher's word pieces (the teacher
// scores the student's batches; the student ignores them); the validation reader, which the
// student's archive predicts with, does not.
local teacher = import 'ud_ewt_minilm_teacher.jsonnet';
{
  distilled_from_minilm(student):: student + {
    vocabulary: { type: 'from_files', directory: 'runs/parser/ud_ewt/teacher/vocabulary' },
    dataset_reader+: { token_indexers+: { transformer: teacher.dataset_reader.token_indexers.transformer } },
    trainer+: {
      callbacks: [{ type: 'green_distillation', teacher_archive: 'runs/parser/ud_ewt/ablations/minilm_teacher/model.tar.gz' }],
    },
  },
}
