// DAN from scratch on TREC (6 coarse classes). Validation on the dev part carved from the training
// file (every 10th question, as for the teacher); trained on the other 4,907; test 500 evaluated
// at the end. CPU-sized: |V| 100,000, d 200, batch 64.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/trec/';

lib.dan('scratch', data + 'train.txt', data + 'train.txt', data + 'test.txt', max_features=100000,
        embedding_dim=200, batch_size=64, lr=1e-3, epochs=20, patience=5, dropout=0.2, ngram_dropout=0.1,
        train_split='train', dev_split='dev')
