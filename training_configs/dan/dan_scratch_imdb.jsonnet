// DAN from scratch on IMDB: the teacher's labeled reviews (every 12th training review, 2,084;
// see teacher_imdb.jsonnet), cross-entropy; validation on every 25th test review. Same n-gram
// vocabulary as DAN(KD) (top 300,000 (1,4)-grams of the distillation corpus's texts).
// CPU-sized: |V| 300k (paper 1M), d 200 (paper 1,000), batch 64.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.dan('scratch', data + 'train.jsonl.gz', data + 'test.jsonl.gz', data + 'test.jsonl.gz',
        max_features=300000, vocab_text_paths=['runs/dan/imdb/kd_train.teacher.jsonl', 'runs/dan/imdb/kd_unsup.teacher.jsonl'],
        embedding_dim=200, batch_size=64, lr=1e-3, epochs=15, patience=4, dropout=0.2, ngram_dropout=0.1) + {
  dataset_reader+: { sample_every: 12 },
  validation_dataset_reader+: { sample_every: 25 },
}
