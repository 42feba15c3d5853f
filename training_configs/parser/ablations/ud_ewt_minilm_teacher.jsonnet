// Ablation beyond the paper: a stronger EWT teacher, to test whether the D-x vs B-x gap is limited by
// the teacher. The BiLSTM teacher (../ud_ewt.jsonnet) scores only 0.5-1.1 LAS above the B-x students,
// so no student distilled from it can clear B-x by a point. This teacher adds all-MiniLM-L6-v2 (the
// only transformer available offline, fine-tuned here; word pieces averaged per word, a learned mix of
// its layers) to the same GloVe word and gold UPOS inputs, with one BiLSTM layer over them.
// The vocabulary is the BiLSTM teacher's (read from its run folder) so the existing B-x students and
// the D-x students of this teacher share label indices. Not a paper-size teacher: the D-x students
// keep the sizes of ../student_sizes/ud_ewt.json (fractions of the BiLSTM teacher).
local lib = import '../biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local minilm = std.extVar('GREEN_NLP_MINILM');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
local word_dim = 50;
local upos_dim = 100;
local pieces = { type: 'pretrained_transformer_mismatched', model_name: minilm, max_length: 256 };
local base = lib.parser(
  train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
  word_dim=word_dim, pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
  upos_dim=upos_dim, lstm_layers=1,
  vocabulary={ type: 'from_files', directory: 'runs/parser/ud_ewt/teacher/vocabulary' },
);
base + {
  dataset_reader+: { token_indexers+: { transformer: pieces } },
  validation_dataset_reader+: { token_indexers+: { transformer: pieces } },
  model+: {
    text_field_embedder+: {
      token_embedders+: { transformer: pieces { last_layer_only: false, train_parameters: true } },
    },
    encoder+: { input_size: word_dim + 384 + upos_dim },
  },
  trainer+: {
    num_epochs: 6,  // fine-tuning a transformer needs few epochs; the scheduler decays to 0 over them
    // the transformer fine-tunes at a small rate, the rest at the parser's; both warm up, then decay
    optimizer+: { parameter_groups: [[['transformer_model'], { lr: 8e-5 }]] },
    learning_rate_scheduler: { type: 'linear_with_warmup', warmup_steps: 300 },
    patience: null,
  },
}
