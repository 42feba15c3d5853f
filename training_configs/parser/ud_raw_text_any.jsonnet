// A raw-text parser for any UD treebank, no pretrained vectors: words learned from the treebank
// (seen once: the unknown token) and a character CNN at the input, no gold UPOS there, and a joint
// UPOS head, as ud_ewt_raw_text.jsonnet without its English GloVe and lower-casing. UD Wolof-WTB by
// default; your treebank's files by -o:
//   allennlp train training_configs/parser/ud_raw_text_any.jsonnet -s runs/my_tb/raw --include-package green_nlp \
//     -o '{"train_data_path": "my-ud-train.conllu", "validation_data_path": "my-ud-dev.conllu", "test_data_path": "my-ud-test.conllu"}'
local lib = import 'biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Wolof-WTB/wo_wtb-ud-';
lib.parser(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  word_dim=100, upos_dim=0, predict_upos=true, char_dim=32, char_filters=100,
  patience=10,
  vocabulary={ type: 'from_instances', min_count: { tokens: 2 } },
)
