// D-80: UD English-EWT student with 80 % of the teacher's trainable parameters,
// distilled from the teacher (KL + CE, dropout off).
// Sizes: ../student_sizes/ud_ewt.json (python -m green_nlp.training.student_sizing).
// The teacher archive is expected at runs/parser/ud_ewt/teacher/model.tar.gz.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_English-EWT/en_ewt-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_ewt.json').students['80'],
  teacher_archive='runs/parser/ud_ewt/teacher/model.tar.gz',
  distilled=true,
  pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
)
