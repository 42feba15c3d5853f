// DAN(KD+FT) on TREC: DAN(KD) (runs/dan/trec/kd) fine-tuned with cross-entropy on the train part
// of the training file, validated on its dev part (see dan_scratch_trec).
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/trec/';

lib.dan('kd_ft', data + 'train.txt', data + 'train.txt', data + 'test.txt', kd_dir='runs/dan/trec/kd',
        embedding_dim=200, batch_size=64, lr=2e-4, epochs=5, patience=2, dropout=0.2, ngram_dropout=0.1,
        train_split='train', dev_split='dev')
