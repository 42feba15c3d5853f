// Biaffine teacher for UD English-EWT with gold UPOS input (the seed paper's setting).
// CPU adaptation: GloVe 6B 50-d (fastText 100-d is not available here), batch 32 sentences and
// early stopping instead of 100 epochs of batch 1024; see README "Results".
local lib = import 'biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
lib.parser(
  train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
  word_dim=50, pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
  patience=5,
)
