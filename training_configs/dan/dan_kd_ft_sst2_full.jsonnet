// DAN(KD+FT) on SST-2: DAN(KD) from the GPU teacher (runs/dan/sst2_full/kd) fine-tuned with
// cross-entropy on all 67,349 labeled training phrases.
local lib = import 'dan.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.dan('kd_ft', data + 'train.tsv', data + 'dev.tsv', data + 'test.tsv', kd_dir='runs/dan/sst2_full/kd',
        embedding_dim=200, batch_size=256, lr=2e-4, epochs=5, patience=2, dropout=0.2, ngram_dropout=0.1,
        label_names=labels.sst2)
