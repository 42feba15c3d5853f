// DAN from scratch on IMDB: the teacher's labeled reviews (every 2nd training review, 12,500;
// see teacher_imdb.jsonnet), cross-entropy. IMDB has no dev split: validation (best epoch, early
// stopping) uses other training reviews (every 12th from the 8th on, 2,083, odd indices, disjoint from the
// labeled sample); the test set is left to benchmarks/dan.py. Same n-gram vocabulary as DAN(KD)
// (top 300,000 (1,4)-grams of the distillation corpus's texts).
// CPU-sized: |V| 300k (paper 1M), d 200 (paper 1,000), batch 64.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.dan('scratch', data + 'train.jsonl.gz', data + 'train.jsonl.gz',
        max_features=300000, vocab_text_paths=['runs/dan/imdb/kd_train.teacher.jsonl', 'runs/dan/imdb/kd_unsup.teacher.jsonl'],
        embedding_dim=200, batch_size=64, lr=1e-3, epochs=15, patience=4, dropout=0.2, ngram_dropout=0.1) + {
  dataset_reader+: { sample_every: 2 },
  validation_dataset_reader+: { sample_every: 12, sample_offset: 7 },
}
