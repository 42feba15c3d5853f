// Parser for raw text on UD English-EWT: no gold UPOS at input; words (GloVe 6B 50-d) +
// character CNN, and a joint UPOS tagging head so raw-text output carries UPOS tags.
local lib = import 'biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
lib.parser(
  train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
  word_dim=50, pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
  upos_dim=0, predict_upos=true, char_dim=32, char_filters=100,
  patience=5,
)
