// DAN(KD+FT) on IMDB: DAN(KD) (runs/dan/imdb/kd) fine-tuned with cross-entropy on the teacher's
// labeled reviews. Validation on held-out training reviews as in dan_scratch_imdb.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.dan('kd_ft', data + 'train.jsonl.gz', data + 'train.jsonl.gz', kd_dir='runs/dan/imdb/kd',
        embedding_dim=200, batch_size=64, lr=2e-4, epochs=5, patience=2, dropout=0.2, ngram_dropout=0.1) + {
  dataset_reader+: { sample_every: 2 },
  validation_dataset_reader+: { sample_every: 12, sample_offset: 7 },
}
