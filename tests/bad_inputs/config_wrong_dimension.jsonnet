// A parser config whose encoder input_size (20) does not match its embeddings (word 6 + UPOS 4 =
// 10): building the model must fail with a ConfigurationError that names both sizes.
local lib = import '../../training_configs/parser/biaffine_parser.libsonnet';
local config = lib.parser(
  train='fixtures/ud/synthetic-tiny.conllu',
  dev='fixtures/ud/synthetic-tiny.conllu',
  word_dim=6, upos_dim=4, lstm_hidden=5, lstm_layers=1, arc_dim=7, label_dim=3, dropout=0.0,
  epochs=1, patience=1, batch_size=4,
);
config + { model+: { encoder+: { input_size: 20 } } }
