// Peer baseline: allennlp-models' own `biaffine_parser` on UD English-EWT, sized like
// training_configs/parser/ud_ewt.jsonnet (GloVe 6B 50-d words + 100-d UPOS, 3-layer BiLSTM 400,
// arc 500, label 100, dropout 0.33, same optimizer), so both parsers are compared on equal terms.
local data = std.extVar('GREEN_NLP_DATA');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
{
  dataset_reader: {
    type: 'universal_dependencies',
    use_language_specific_pos: false,
    token_indexers: { tokens: { type: 'single_id', lowercase_tokens: true } },
  },
  train_data_path: ewt + 'train.conllu',
  validation_data_path: ewt + 'dev.conllu',
  test_data_path: ewt + 'test.conllu',
  evaluate_on_test: true,
  model: {
    type: 'biaffine_parser',
    text_field_embedder: {
      token_embedders: {
        tokens: {
          type: 'embedding',
          embedding_dim: 50,
          pretrained_file: data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz',
          trainable: true,
        },
      },
    },
    pos_tag_embedding: { embedding_dim: 100, vocab_namespace: 'pos', sparse: false },
    encoder: { type: 'lstm', input_size: 150, hidden_size: 400, num_layers: 3, dropout: 0.33, bidirectional: true },
    use_mst_decoding_for_validation: true,
    arc_representation_dim: 500,
    tag_representation_dim: 100,
    dropout: 0.33,
    input_dropout: 0.33,
  },
  data_loader: { batch_sampler: { type: 'bucket', batch_size: 32, sorting_keys: ['words'] } },
  validation_data_loader: { batch_sampler: { type: 'bucket', batch_size: 128, sorting_keys: ['words'] } },
  trainer: {
    num_epochs: 100,
    patience: 5,
    grad_norm: 5.0,
    validation_metric: '+LAS',
    optimizer: { type: 'adam', lr: 2e-3, betas: [0.9, 0.9], eps: 1e-12 },
    learning_rate_scheduler: { type: 'reduce_on_plateau', mode: 'max', factor: 0.5, patience: 2 },
    checkpointer: { keep_most_recent_by_count: 1 },
  },
}
