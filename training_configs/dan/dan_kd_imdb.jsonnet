// DAN(KD) on IMDB (Ye et al. 2022, stage 2): KL to the MiniLM teacher's logits over the teacher's
// labeled reviews + a sample of the 50k unlabeled reviews (every 3rd, 16,667), written by
//   allennlp green-label-teacher runs/dan/imdb/teacher/model.tar.gz .../imdb/train.jsonl.gz \
//     --every-nth 2 --output runs/dan/imdb/kd_train.teacher.jsonl   (and train_unsup, --every-nth 3)
// Validation on held-out training reviews as in dan_scratch_imdb; sizes as there.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.dan('kd', 'runs/dan/imdb/kd*.teacher.jsonl', data + 'train.jsonl.gz',
        max_features=300000, embedding_dim=200, batch_size=64, lr=1e-3, epochs=15, patience=4,
        dropout=0.2, ngram_dropout=0.1, temperature=1.0) + {
  validation_dataset_reader+: { sample_every: 12, sample_offset: 7 },
}
