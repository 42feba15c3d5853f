// DAN(KD) on IMDB from the GPU teacher (teacher_imdb_full.jsonnet): KL to its logits over its
// 22,917 training reviews + every 3rd of the 50k unlabeled reviews (16,667), written by
//   allennlp green-label-teacher runs/dan/imdb_full/teacher/model.tar.gz .../imdb/train.jsonl.gz \
//     --split train --dev-every 12 --output runs/dan/imdb_full/kd_train.teacher.jsonl   (and
//   train_unsup.jsonl.gz with --every-nth 3 into kd_unsup.teacher.jsonl)
// Validation on the held-out 2,083 as in dan_scratch_imdb_full; sizes as there.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.dan('kd', 'runs/dan/imdb_full/kd*.teacher.jsonl', data + 'train.jsonl.gz',
        max_features=300000, embedding_dim=200, batch_size=64, lr=1e-3, epochs=15, patience=4,
        dropout=0.2, ngram_dropout=0.1, temperature=1.0, dev_split='dev') + {
  validation_dataset_reader+: { dev_every: 12 },
}
