// DAN(KD+FT) on IMDB: DAN(KD) from the GPU teacher (runs/dan/imdb_full/kd) fine-tuned with
// cross-entropy on the same 22,917 labeled reviews; validation as in dan_scratch_imdb_full.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.dan('kd_ft', data + 'train.jsonl.gz', data + 'train.jsonl.gz', kd_dir='runs/dan/imdb_full/kd',
        embedding_dim=200, batch_size=64, lr=2e-4, epochs=5, patience=2, dropout=0.2, ngram_dropout=0.1,
        train_split='train', dev_split='dev') + {
  dataset_reader+: { dev_every: 12 },
  validation_dataset_reader+: { dev_every: 12 },
}
