// Biaffine teacher for UD Tamil-TTB with gold UPOS input (Table 4 sizes). No pretrained
// embeddings are available here for this language, so words are learned from the treebank
// (word_dim 100, words seen once map to the unknown token).
local lib = import 'biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local prefix = data + '/ud/UD_Tamil-TTB/ta_ttb-ud-';
lib.parser(
  train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
  word_dim=100, patience=10,
  vocabulary={ type: 'from_instances', min_count: { tokens: 2 } },
)
