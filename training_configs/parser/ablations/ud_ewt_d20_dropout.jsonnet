// Ablation beyond the paper: D-20 on UD English-EWT distilled like ud_ewt_d20 (KL + CE from the
// same teacher) but keeping the teacher's dropout (0.33) instead of switching it off, so it
// differs from the B-20 baseline only in the teacher's loss terms.
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_English-EWT/en_ewt-ud-';
lib.student(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  size=(import '../student_sizes/ud_ewt.json').students['20'],
  teacher_archive='runs/parser/ud_ewt/teacher/model.tar.gz',
  distilled=true,
  pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
  dropout=0.33,
)
