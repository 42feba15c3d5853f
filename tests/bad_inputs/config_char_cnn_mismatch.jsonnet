// A parser config whose character CNN takes 8 numbers per character (encoder.embedding_dim) while
// its character embedding gives 5: building the model must fail with a ConfigurationError naming
// both numbers, before any batch (it used to fail inside torch's convolution).
local lib = import '../../training_configs/parser/biaffine_parser.libsonnet';
local config = lib.parser(
  train='fixtures/ud/synthetic-tiny.conllu',
  dev='fixtures/ud/synthetic-tiny.conllu',
  word_dim=6, upos_dim=4, lstm_hidden=5, lstm_layers=1, arc_dim=7, label_dim=3, dropout=0.0,
  epochs=1, patience=1, batch_size=4, char_dim=5, char_filters=4,
);
config + { model+: { text_field_embedder+: { token_embedders+: { token_characters+: { encoder+: { embedding_dim: 8 } } } } } }
