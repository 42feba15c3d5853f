// LD-Net language models (Liu et al. 2018, "Efficient Contextualized Representation: Language
// Model Pruning for Sequence Labeling"): word embedding -> densely connected LSTM -> projection ->
// adaptive softmax, trained with layer-wise dropout.
//
// The paper's LM (1 Billion Word; 300-d words, 10 layers of 300 units, 1,600-d projection) is far
// beyond a 2-core CPU and that corpus is not available here. The `cpu` preset keeps the paper's
// depth (10 densely connected layers) at a third of its width, so that a pass over the 4.4M-word
// corpus (IMDB unlabeled reviews + the tagging sets' training text, see docs/ldnet.md) takes 30-40
// minutes per direction on one core; two passes are run.
// `tiny` is for the committed fixture archives and tests.
{
  presets: {
    tiny: { embedding_dim: 8, hidden_dim: 6, num_layers: 3, projection_dim: 8, cutoffs: [20] },
    cpu: { embedding_dim: 100, hidden_dim: 100, num_layers: 10, projection_dim: 200, cutoffs: [1000, 5000] },
  },

  // Configs read data from LDNET_DATA: the shared data root, or fixtures/ldnet/data when absent.
  // green_nlp exports it and the other LDNET_* settings on import, as absolute paths unless set, so
  // the configs run from any folder (see green_nlp/settings.py and docs/ldnet.md).
  on_fixtures(data):: std.length(std.findSubstr('fixtures/ldnet', data)) > 0,
  fixtures_dir:: std.extVar('LDNET_FIXTURES'),
  runs_dir:: std.extVar('LDNET_RUNS'),

  // `value`, after printing `message` as a WARNING on stderr when the config is read (std.trace):
  // a config that falls back to fixtures, or to the toy LMs on real data, says so.
  warn_if(condition, message, value):: if condition then std.trace('WARNING: ' + message, value) else value,

  // How to leave the fixtures: the message of every config that trains on them.
  fixture_data_warning(what, next_step='')::
    'green_nlp LD-Net: training ' + what + ' on the tiny made-up fixture files, not real data (its scores ' +
    'mean nothing), because LDNET_DATA is ' + std.extVar('LDNET_DATA') + '. For the real data set ' +
    'GREEN_NLP_DATA (now ' + std.extVar('GREEN_NLP_DATA') + ') to the folder holding ner/conll2003/eng.train ' +
    '(or LDNET_DATA to it)' + next_step + '.',

  // The commands that build the trained LMs where the configs look for them (LDNET_RUNS).
  build_lms_commands::
    local configs = std.strReplace(std.thisFile, 'lm.libsonnet', '');
    'python -m green_nlp.dataset_readers.lm_corpus ' + $.runs_dir + '/lm_corpus --imdb-tokens 4000000 && ' +
    std.join(' && ', [
      'allennlp train ' + configs + 'lm_' + direction + '.jsonnet -s ' + $.runs_dir + '/lm_' + direction +
      ' --include-package green_nlp'
      for direction in ['forward', 'backward']
    ]),

  toy_lm_warning::
    'green_nlp LD-Net: no trained language models at ' + $.archive('cpu', 'forward') + ' and ' +
    $.archive('cpu', 'backward') + ', so this tagger uses the toy fixture LMs (' + $.archive('tiny', 'forward') +
    ', ...), whose features are useless on real data. Build the real LMs (about an hour per direction on a CPU) with: ' +
    $.build_lms_commands + ' ; or set LDNET_RUNS to the folder that holds lm_forward/model.tar.gz and ' +
    'lm_backward/model.tar.gz; LDNET_LM_PRESET=cpu makes their absence an error instead of this warning.',

  // The model block of a trainable LM.
  model(preset, direction):: self.presets[preset] + {
    type: 'green_dense_lm',
    direction: direction,
    dropout: 0.1,
    layer_dropout: 0.2,  // the paper's layer-wise dropout ratio for LD-Net (9)
  },

  // The same LM inside a tagger: no softmax, words in the tagger's `ldnet_lm_tokens` namespace,
  // weights and vocabulary copied from `archive` (null when the tagger's own weights provide them).
  // (No `type`: the tagger's argument is typed as this class already.)
  tagger_lm(preset, direction, archive):: {
    embedding_dim: $.presets[preset].embedding_dim,
    hidden_dim: $.presets[preset].hidden_dim,
    num_layers: $.presets[preset].num_layers,
    direction: direction,
    with_softmax: false,
    namespace: 'ldnet_lm_tokens',
    [if archive != null then 'pretrained_file']: archive,
  },

  // Trained archives for a preset: the runs of benchmarks/runs/ldnet.sh, or the fixtures.
  archive(preset, direction)::
    if preset == 'tiny' then $.fixtures_dir + '/archives/lm_' + direction + '.tar.gz'
    else $.runs_dir + '/lm_' + direction + '/model.tar.gz',

  experiment(direction):: {
    local data = std.extVar('LDNET_DATA'),
    local fixtures = $.on_fixtures(data),
    local corpus = if fixtures then $.fixtures_dir + '/lm/' else $.runs_dir + '/lm_corpus/',
    dataset_reader: { type: 'green_lm_text', max_sequence_length: 50 },
    train_data_path: $.warn_if(
      fixtures,
      $.fixture_data_warning('the ' + direction + ' LM', ', then build the LM corpus with `python -m ' +
                             'green_nlp.dataset_readers.lm_corpus ' + $.runs_dir + '/lm_corpus --imdb-tokens 4000000`'),
      corpus + 'train.txt'
    ),
    validation_data_path: corpus + 'dev.txt',
    vocabulary: { type: 'from_instances', min_count: { tokens: if fixtures then 1 else 3 }, max_vocab_size: { tokens: 20000 } },
    model: $.model(if fixtures then 'tiny' else 'cpu', direction),
    data_loader: { batch_sampler: { type: 'bucket', batch_size: if fixtures then 8 else 64 } },
    validation_data_loader: { batch_sampler: { type: 'bucket', batch_size: 128 } },
    trainer: {
      num_epochs: 2,  // two passes over a few million words (CPU budget), not the paper's 1B-word runs
      optimizer: { type: 'adam', lr: 0.002 },
      grad_norm: 5.0,  // the paper clips gradients at 5
      validation_metric: '-perplexity',
      checkpointer: { keep_most_recent_by_count: 1 },
    },
  },
}
