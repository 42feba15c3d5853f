// DAN from scratch on IMDB, on the labeled reviews of the GPU teacher (teacher_imdb_full.jsonnet):
// every training review but every 12th (22,917), cross-entropy; validation on the held-out 2,083
// (every 12th). Same n-gram vocabulary as its DAN(KD): top 300,000 (1,4)-grams of the distillation
// corpus's texts. CPU-sized as dan_scratch_imdb.jsonnet (|V| 300k, d 200, batch 64).
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';
local runs = 'runs/dan/imdb_full/';

lib.dan('scratch', data + 'train.jsonl.gz', data + 'train.jsonl.gz',
        max_features=300000, vocab_text_paths=[runs + 'kd_train.teacher.jsonl', runs + 'kd_unsup.teacher.jsonl'],
        embedding_dim=200, batch_size=64, lr=1e-3, epochs=15, patience=4, dropout=0.2, ngram_dropout=0.1,
        train_split='train', dev_split='dev') + {
  dataset_reader+: { dev_every: 12 },
  validation_dataset_reader+: { dev_every: 12 },
}
