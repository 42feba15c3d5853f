// Shared builder for green_nlp's biaffine parser configs.
// Dozat & Manning (2017), "Deep Biaffine Attention for Neural Dependency Parsing", with the
// hyperparameters of Table 4 of "Distilling Neural Networks for Greener and Faster Dependency
// Parsing" (Anderson & Gomez-Rodriguez, 2020) as defaults: word 100, UPOS 100, 3-layer BiLSTM 400,
// arc MLP 500, label MLP 100, dropout 0.33, Adam with beta2 0.9 and epsilon 1e-12.
{
  parser(
    train, dev, test=null,
    word_dim=100, pretrained_file=null, lowercase=false,
    upos_dim=100, predict_upos=false,
    char_dim=0, char_filters=100,
    lstm_hidden=400, lstm_layers=3, arc_dim=500, label_dim=100,
    dropout=0.33,
    epochs=100, patience=10, batch_size=32, lr=2e-3, grad_norm=5.0,
    max_sentence_length=null,
    vocabulary=null,
  )::
    local use_upos = upos_dim > 0 || predict_upos;
    local char_out = if char_dim > 0 then char_filters else 0;
    local reader = {
      type: 'green_conllu_dependencies',
      use_gold_upos: use_upos,
      token_indexers: {
        tokens: { type: 'single_id', lowercase_tokens: lowercase },
      } + (if char_dim > 0 then { token_characters: { type: 'characters', min_padding_length: 3 } } else {}),
    };
    {
      dataset_reader: reader { max_sentence_length: max_sentence_length },
      validation_dataset_reader: reader,
      train_data_path: train,
      validation_data_path: dev,
      [if test != null then 'test_data_path']: test,
      [if test != null then 'evaluate_on_test']: true,
      [if vocabulary != null then 'vocabulary']: vocabulary,
      model: {
        type: 'green_biaffine_parser',
        text_field_embedder: {
          token_embedders: {
            tokens: {
              type: 'embedding',
              embedding_dim: word_dim,
              trainable: true,
              [if pretrained_file != null then 'pretrained_file']: pretrained_file,
            },
          } + (if char_dim > 0 then {
                 token_characters: {
                   type: 'character_encoding',
                   embedding: { embedding_dim: char_dim },
                   encoder: { type: 'cnn', embedding_dim: char_dim, num_filters: char_filters, ngram_filter_sizes: [3] },
                 },
               } else {}),
        },
        upos_embedding_dim: upos_dim,
        predict_upos: predict_upos,
        encoder: {
          type: 'lstm',
          input_size: word_dim + char_out + upos_dim,
          hidden_size: lstm_hidden,
          num_layers: lstm_layers,
          dropout: if lstm_layers > 1 then dropout else 0.0,  // torch applies it between layers only
          bidirectional: true,
        },
        arc_mlp_dim: arc_dim,
        label_mlp_dim: label_dim,
        embedding_dropout: dropout,
        mlp_dropout: dropout,
      },
      data_loader: {
        batch_sampler: { type: 'bucket', batch_size: batch_size, sorting_keys: ['words'] },
      },
      validation_data_loader: {
        batch_sampler: { type: 'bucket', batch_size: 128, sorting_keys: ['words'] },
      },
      trainer: {
        num_epochs: epochs,
        patience: patience,
        grad_norm: grad_norm,
        validation_metric: '+LAS',
        optimizer: { type: 'adam', lr: lr, betas: [0.9, 0.9], eps: 1e-12 },
        learning_rate_scheduler: { type: 'reduce_on_plateau', mode: 'max', factor: 0.5, patience: 2 },
        checkpointer: { keep_most_recent_by_count: 1 },
      },
    },

  // Full UD output: `config` (a parser from `parser` above) plus the heads that predict LEMMA (as
  // edit scripts), FEATS (whole UFeats strings) and XPOS, trained jointly with the parser on the
  // encoder; `columns` picks which, `weights` their loss weights (1 each by default).
  // lemma_dictionary: also put the training file's (form, UPOS) -> lemma dictionary in the archive
  // (vocabulary type green_lemma_lexicon, green_nlp/models/lemma_lexicon_vocabulary.py), which the
  // predictor and the exported folder consult before the lemma head's edit script.
  with_ud_heads(config, columns=['lemmas', 'feats', 'xpos'], weights={}, lemma_dictionary=false)::
    local option = { lemmas: 'predict_lemmas', feats: 'predict_feats', xpos: 'predict_xpos' };
    local weight = { lemmas: 'lemma_loss_weight', feats: 'feats_loss_weight', xpos: 'xpos_loss_weight' };
    assert !lemma_dictionary || std.member(columns, 'lemmas') : 'lemma_dictionary needs the lemmas column';
    assert !lemma_dictionary || !std.objectHas(config, 'vocabulary') : 'lemma_dictionary builds the vocabulary';
    config + {
      [if lemma_dictionary then 'vocabulary']: {
        type: 'green_lemma_lexicon',
        lemma_lexicon_file: config.train_data_path,
      },
      dataset_reader+: { read_columns: columns },
      validation_dataset_reader+: { read_columns: columns },
      model+: {
        [option[c]]: true
        for c in columns
      } + {
        [weight[c]]: weights[c]
        for c in columns
        if std.objectHas(weights, c)
      },
    },

  // A student (or equal-size baseline) with the dims picked by green_nlp.training.student_sizing
  // for a fraction of the teacher's parameters. Both use the teacher's vocabulary so label indices
  // match; distilled students train with dropout off and the green_parser_distillation callback (the
  // paper's equation 3), baselines with the teacher's dropout and no teacher. `dropout` overrides
  // that choice (e.g. a distilled student that keeps the teacher's dropout, an ablation).
  student(train, dev, test, size, teacher_archive, distilled, pretrained_file=null, lowercase=false,
          epochs=100, patience=10, dropout=null)::
    local base = self.parser(
      train=train, dev=dev, test=test,
      word_dim=size.word_dim, pretrained_file=pretrained_file, lowercase=lowercase,
      upos_dim=size.upos_dim, lstm_hidden=size.lstm_hidden, lstm_layers=size.lstm_layers,
      arc_dim=size.arc_dim, label_dim=size.label_dim,
      dropout=if dropout != null then dropout else if distilled then 0.0 else 0.33,
      epochs=epochs, patience=patience,
      vocabulary={ type: 'from_files', directory: teacher_archive },
    );
    if distilled then base + {
      trainer+: { callbacks: [{ type: 'green_parser_distillation', teacher_archive: teacher_archive }] },
    } else base,
}

