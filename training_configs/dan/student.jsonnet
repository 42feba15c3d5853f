// An n-gram DAN student of sparse distillation (Ye et al. 2022), picked by two Jsonnet external
// variables (AllenNLP passes the environment to Jsonnet, and Jsonnet has no default, so both are needed):
//   DATASET  sst2 | trec | imdb: the students of the CPU-sized teachers (teacher_<DATASET>.jsonnet)
//            sst2_full | imdb_full: of the teachers fine-tuned on a GPU; the DANs themselves train on a CPU
//   STAGE    scratch: the teacher's labeled training set, cross-entropy, with the n-gram vocabulary of kd
//                     (the top (1,4)-grams of the distillation corpus), so the comparison isolates distillation
//            kd: KL to the teacher's logits over its cache runs/dan/<DATASET>/kd*.teacher.jsonl (written by
//                allennlp green-label-teacher, benchmarks/runs/dan.sh: the training texts plus unlabeled
//                text or augmented copies)
//            kd_ft: kd's weights and vocabulary (runs/dan/<DATASET>/kd) fine-tuned with cross-entropy
//            kd_augmented (sst2), kd_train_only and kd_questions (trec): kd on another corpus (docs/dan.md)
//   DATASET=sst2 STAGE=kd allennlp train training_configs/dan/student.jsonnet -s runs/dan/sst2/kd \
//     --include-package green_nlp
// CPU-sized, and said so: |V| 100k-300k (paper 1M), d 200 (paper 1,000), batch 64-256 (paper 2,048).
local lib = import 'dan.libsonnet';
local labels = import 'labels.libsonnet';
local cls = std.extVar('GREEN_NLP_DATA') + '/cls/';
local choose = (import '../matrix.libsonnet').choose;
local sizes = { embedding_dim: 200, dropout: 0.2, ngram_dropout: 0.1 };

// SST-2: the teacher's dev and test; the CPU teacher labeled the first 10,000 training phrases, the GPU one all
// 67,349 (sst2_full), each with sentences of IMDB's unlabeled reviews in its cache
local sst2(runs, max_train_examples, augmented) = {
  local data = cls + 'sst2/',
  local kd(corpus) = lib.dan('kd', runs + corpus, data + 'dev.tsv', data + 'test.tsv', max_features=200000,
                             batch_size=256, lr=1e-3, epochs=15, patience=4, temperature=1.0,
                             label_names=labels.sst2, embedding_dim=sizes.embedding_dim, dropout=sizes.dropout,
                             ngram_dropout=sizes.ngram_dropout),
  scratch: lib.dan('scratch', data + 'train.tsv', data + 'dev.tsv', data + 'test.tsv',
                   max_train_examples=max_train_examples, max_features=200000,
                   vocab_text_paths=[runs + 'kd*.teacher.jsonl'], batch_size=256, lr=1e-3, epochs=15, patience=4,
                   label_names=labels.sst2, embedding_dim=sizes.embedding_dim, dropout=sizes.dropout,
                   ngram_dropout=sizes.ngram_dropout),
  kd: kd('kd*.teacher.jsonl'),
  // and 5 augmented copies of each labeled phrase (dan.sh sst2_augmented; run on the CPU setup)
  [if augmented then 'kd_augmented']: kd('*.teacher.jsonl'),
  kd_ft: lib.dan('kd_ft', data + 'train.tsv', data + 'dev.tsv', data + 'test.tsv',
                 max_train_examples=max_train_examples, kd_dir=runs + 'kd', batch_size=256, lr=2e-4, epochs=5,
                 patience=2, label_names=labels.sst2, embedding_dim=sizes.embedding_dim, dropout=sizes.dropout,
                 ngram_dropout=sizes.ngram_dropout),
};

// TREC: every 10th training question held out as dev (split 'dev'), the other 4,907 train; 6 coarse classes
local trec = {
  local data = cls + 'trec/',
  local runs = 'runs/dan/trec/',
  local kd(corpus) = lib.dan('kd', runs + corpus, data + 'train.txt', data + 'test.txt', max_features=100000,
                             batch_size=64, lr=1e-3, epochs=20, patience=5, temperature=2.0, dev_split='dev',
                             embedding_dim=sizes.embedding_dim, dropout=sizes.dropout,
                             ngram_dropout=sizes.ngram_dropout),
  scratch: lib.dan('scratch', data + 'train.txt', data + 'train.txt', data + 'test.txt', max_features=100000,
                   batch_size=64, lr=1e-3, epochs=20, patience=5, train_split='train', dev_split='dev',
                   embedding_dim=sizes.embedding_dim, dropout=sizes.dropout, ngram_dropout=sizes.ngram_dropout),
  kd: kd('kd*.teacher.jsonl'),  // the training questions and 20 augmented copies of each
  kd_train_only: kd('kd.teacher.jsonl'),  // the training questions alone
  kd_questions: kd('*.teacher.jsonl'),  // and 30,851 questions from IMDB reviews (dan.sh trec_questions)
  kd_ft: lib.dan('kd_ft', data + 'train.txt', data + 'train.txt', data + 'test.txt', kd_dir=runs + 'kd',
                 batch_size=64, lr=2e-4, epochs=5, patience=2, train_split='train', dev_split='dev',
                 embedding_dim=sizes.embedding_dim, dropout=sizes.dropout, ngram_dropout=sizes.ngram_dropout),
};

// IMDB (no dev split; the test set is left to benchmarks/dan/distillation.py). CPU teacher: every 2nd training
// review labeled, validation on every 12th from the 8th (disjoint); GPU teacher (imdb_full): all but every 12th,
// validation on the held-out 12th (split 'dev')
local imdb(runs, full) = {
  local data = cls + 'imdb/',
  local train = data + 'train.jsonl.gz',
  local readers = if full then {
    dataset_reader+: { dev_every: 12 },
    validation_dataset_reader+: { dev_every: 12 },
  } else {
    dataset_reader+: { sample_every: 2 },
    validation_dataset_reader+: { sample_every: 12, sample_offset: 7 },
  },
  local splits = if full then { train_split: 'train', dev_split: 'dev' } else {},
  local common = sizes { batch_size: 64 } + splits,
  scratch: lib.dan('scratch', train, train, max_features=300000,
                   vocab_text_paths=[runs + 'kd_train.teacher.jsonl', runs + 'kd_unsup.teacher.jsonl'],
                   lr=1e-3, epochs=15, patience=4, embedding_dim=common.embedding_dim, batch_size=common.batch_size,
                   dropout=common.dropout, ngram_dropout=common.ngram_dropout,
                   train_split=std.get(common, 'train_split', 'all'), dev_split=std.get(common, 'dev_split', 'all'))
           + readers,
  kd: lib.dan('kd', runs + 'kd*.teacher.jsonl', train, max_features=300000, lr=1e-3, epochs=15, patience=4,
              temperature=1.0, embedding_dim=common.embedding_dim, batch_size=common.batch_size,
              dropout=common.dropout, ngram_dropout=common.ngram_dropout,
              dev_split=std.get(common, 'dev_split', 'all'))
      + { validation_dataset_reader+: readers.validation_dataset_reader },
  kd_ft: lib.dan('kd_ft', train, train, kd_dir=runs + 'kd', lr=2e-4, epochs=5, patience=2,
                 embedding_dim=common.embedding_dim, batch_size=common.batch_size, dropout=common.dropout,
                 ngram_dropout=common.ngram_dropout, train_split=std.get(common, 'train_split', 'all'),
                 dev_split=std.get(common, 'dev_split', 'all'))
         + readers,
};

local datasets = {
  sst2: sst2('runs/dan/sst2/', 10000, augmented=true),
  sst2_full: sst2('runs/dan/sst2_full/', null, augmented=false),
  trec: trec,
  imdb: imdb('runs/dan/imdb/', false),
  imdb_full: imdb('runs/dan/imdb_full/', true),
};
choose('STAGE', choose('DATASET', datasets, std.extVar('DATASET')), std.extVar('STAGE'))
