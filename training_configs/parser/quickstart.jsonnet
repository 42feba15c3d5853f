// Quickstart: a tiny words + characters parser that also tags UPOS, trained in seconds on the
// synthetic fixtures, so it can parse raw text (which has no gold UPOS).
local lib = import 'biaffine_parser.libsonnet';
lib.parser(
  train='fixtures/ud/synthetic-train.conllu',
  dev='fixtures/ud/synthetic-dev.conllu',
  word_dim=16, lowercase=true, upos_dim=0, predict_upos=true, char_dim=8, char_filters=16,
  lstm_hidden=32, lstm_layers=1, arc_dim=32, label_dim=16, dropout=0.2,
  epochs=15, patience=5, batch_size=16, lr=5e-3,
)
