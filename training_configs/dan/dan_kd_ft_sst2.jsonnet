// DAN(KD+FT) on SST-2 (Ye et al. 2022, optional stage 3): DAN(KD)'s weights and vocabulary
// (runs/dan/sst2/kd), fine-tuned with cross-entropy on the teacher's 10,000 labeled phrases.
local lib = import 'dan.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.dan('kd_ft', data + 'train.tsv', data + 'dev.tsv', data + 'test.tsv', max_train_examples=10000,
        kd_dir='runs/dan/sst2/kd', embedding_dim=200, batch_size=256, lr=2e-4, epochs=5, patience=2,
        dropout=0.2, ngram_dropout=0.1,
        label_names=labels.sst2)
