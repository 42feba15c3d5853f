// The shipped English parser for raw text (`en-ewt-parser`): UD English-EWT, words (GloVe 6B 50-d) +
// character CNN at the input and a joint UPOS head, so it needs no tagger; about a fifth of the full
// raw-text parser's BiLSTM and MLP sizes (the D-20/B-20 dims of student_sizes/ud_ewt.json) for speed.
// Rebuild: scripts/build_pretrained.sh en-ewt-parser.
local lib = import 'biaffine_parser.libsonnet';
local size = (import 'student_sizes/ud_ewt.json').students['20'];
local data = std.extVar('GREEN_NLP_DATA');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
lib.parser(
  train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
  word_dim=50, pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
  upos_dim=0, predict_upos=true, char_dim=32, char_filters=100,
  lstm_hidden=size.lstm_hidden, lstm_layers=size.lstm_layers, arc_dim=size.arc_dim, label_dim=size.label_dim,
  epochs=14, patience=4,
)
