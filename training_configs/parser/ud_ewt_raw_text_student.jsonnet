// A distilled parser for raw text on UD English-EWT: the raw-text model of ud_ewt_raw_text_small.jsonnet
// (words + character CNN, joint UPOS head, no UPOS input) at the D-<SIZE> dims of student_sizes/ud_ewt.json,
// trained with the distillation callback (KL + CE) from the gold-UPOS teacher of ud_ewt.jsonnet. The
// teacher reads the gold UPOS column of each training sentence, which the student never sees, so its arc
// and label targets carry what the tags tell it. Dropout stays at 0.33, unlike the seed paper's students:
// with it off the raw-text D-20 fit its training set (train LAS 95.9) and fell 0.8 dev LAS behind the same
// model trained alone (pretrained/en-ewt-parser/README.md has the front). The teacher first, its best and
// last checkpoints averaged to where this config reads it:
//   allennlp train training_configs/parser/ud_ewt.jsonnet -s runs/ewt_gold_upos -o '{"trainer.num_epochs": 16}' \
//     --include-package green_nlp
//   allennlp green-average-checkpoints runs/ewt_gold_upos --output runs/parser/ud_ewt/teacher/model.tar.gz \
//     --include-package green_nlp
//   SIZE=20 allennlp train training_configs/parser/ud_ewt_raw_text_student.jsonnet \
//     -s runs/parser/ud_ewt/raw_text_d20 --include-package green_nlp
// SIZE: 20 | 40 | 60 | 80 (% of the gold-UPOS teacher's trainable parameters, before the character CNN).
// The paper's dropout-off student: -o '{"model.embedding_dropout": 0, "model.mlp_dropout": 0, "model.encoder.dropout": 0}'.
local lib = import 'biaffine_parser.libsonnet';
local treebanks = import 'treebanks.libsonnet';
local size = treebanks.choose('SIZE', (import 'student_sizes/ud_ewt.json').students, std.extVar('SIZE'));
local teacher = treebanks.runs('ud_ewt') + '/teacher/model.tar.gz';
local data = std.extVar('GREEN_NLP_DATA');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
lib.parser(
  train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
  word_dim=50, pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
  upos_dim=0, predict_upos=true, char_dim=32, char_filters=100,
  lstm_hidden=size.lstm_hidden, lstm_layers=size.lstm_layers, arc_dim=size.arc_dim, label_dim=size.label_dim,
  epochs=14, patience=4,
  // the teacher's word and label indices, plus the character namespace it does not have
  vocabulary={ type: 'extend', directory: teacher },
) + {
  trainer+: { callbacks: [{ type: 'green_parser_distillation', teacher_archive: teacher }] },
}
