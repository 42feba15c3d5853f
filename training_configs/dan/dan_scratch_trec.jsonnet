// DAN from scratch on TREC (6 coarse classes; train 5,452, test 500, which also serves as
// validation: TREC has no dev split). CPU-sized: |V| 100,000, d 200, batch 64.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/trec/';

lib.dan('scratch', data + 'train.txt', data + 'test.txt', max_features=100000, embedding_dim=200,
        batch_size=64, lr=1e-3, epochs=20, patience=5, dropout=0.2, ngram_dropout=0.1)
