// The student of sparse distillation (Ye et al. 2022): a Deep Averaging Network over 1-4-grams.
// Paper / reference settings: CountVectorizer (1,4)-grams, |V| = 1,000,000, d = 1,000, mean pooling,
// two fully connected layers, SparseAdam for the table + Adam for the rest (lr 5e-4, dense-only
// clipping), KL to the teacher's distribution x T^2, batch 2,048. The builders below take those
// as defaults; the dataset configs shrink |V|, d and the batch for a 2-core CPU and say so.
{
  reader(format='auto', fine_labels=false, max_examples=null, skip_unlabeled=false, split='all',
         split_file=null, label_names=null):: {
    type: 'green_ngram_text',
    ngram_range: [1, 4],
    format: format,
    fine_labels: fine_labels,
    skip_unlabeled: skip_unlabeled,
    split: split,
    [if split != 'all' then 'split_file']: split_file,
    [if max_examples != null then 'max_examples']: max_examples,
    [if label_names != null then 'label_names']: label_names,
  },

  // stage: 'scratch' (train set, CE), 'kd' (teacher cache, KL), 'kd_ft' (start from a kd run's weights and
  // vocabulary, `kd_dir`, and fine-tune on the train set with CE).
  dan(stage, train, dev, test=null, format='auto', fine_labels=false, max_train_examples=null,
      max_features=1000000, vocab_text_paths=null, vocab_max_examples=null,
      embedding_dim=1000, hidden_dim=null, dropout=0.0, ngram_dropout=0.0, pretrained_file=null,
      temperature=1.0, kd_dir=null,
      batch_size=2048, lr=5e-4, epochs=10, patience=3, max_dense_grad_norm=1.0,
      train_split='all', dev_split='all', label_names=null)::
    // train_split / dev_split: 'train' and 'dev' carve a dev set out of a file that has none (TREC;
    // a teacher cache is read whole: label only the train part into it). label_names: readable class
    // names (labels.libsonnet), the same as the teacher's.
    assert std.member(['scratch', 'kd', 'kd_ft'], stage) : 'stage must be scratch, kd or kd_ft';
    assert stage != 'kd_ft' || kd_dir != null : 'kd_ft needs kd_dir';
    {
      dataset_reader: $.reader(format, fine_labels, if stage == 'kd' then null else max_train_examples,
                               skip_unlabeled=stage != 'kd', split=train_split, split_file=train,
                               label_names=label_names),
      validation_dataset_reader: $.reader(format, fine_labels, skip_unlabeled=true, split=dev_split,
                                          split_file=dev, label_names=label_names),
      train_data_path: train,
      validation_data_path: dev,
      [if test != null then 'test_data_path']: test,
      [if test != null then 'evaluate_on_test']: true,
      datasets_for_vocab_creation: ['train'],  // n-grams from train (+ unlabeled) text only
      vocabulary: if stage == 'kd_ft' then { type: 'from_files', directory: kd_dir + '/vocabulary' } else {
        type: 'green_ngram_count_vectorizer',
        max_features: max_features,
        [if vocab_text_paths != null then 'text_paths']: vocab_text_paths,
        [if vocab_max_examples != null then 'max_examples_per_path']: vocab_max_examples,
      },
      model: {
        type: 'green_ngram_dan',
        embedding_dim: embedding_dim,
        [if hidden_dim != null then 'hidden_dim']: hidden_dim,
        dropout: dropout,
        ngram_dropout: ngram_dropout,
        // word vectors for the table's start (beyond the paper); dropped when an archive loads
        [if pretrained_file != null && stage != 'kd_ft' then 'pretrained_file']: pretrained_file,
        [if stage == 'kd_ft' then 'initializer']: {
          regexes: [['.*', { type: 'pretrained', weights_file_path: kd_dir + '/best.th' }]],
        },
      },
      data_loader: { batch_size: batch_size, shuffle: true },
      validation_data_loader: { batch_size: 256, shuffle: false },
      trainer: {
        num_epochs: epochs,
        patience: patience,
        validation_metric: '+accuracy',
        // no trainer grad_norm: it would clip the sparse table's gradients too
        optimizer: { type: 'green_hybrid_adam', lr: lr, max_dense_grad_norm: max_dense_grad_norm },
        [if stage == 'kd' then 'callbacks']: [{ type: 'green_logit_distillation', temperature: temperature }],
        cuda_device: -1,
      },
    },
}
