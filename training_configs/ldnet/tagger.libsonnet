// LD-Net sequence labeler (Liu et al. 2018, Sec. 2.6 and 3.2): character BiLSTM + GloVe words +
// the frozen LMs' concatenated layer outputs (ReLU projection) -> word BiLSTM -> CRF, BIOES tags.
//
// Paper: 30-d characters, 150-unit character and word LSTMs per direction, GloVe 100-d, SGD with
// momentum, batch 10, up to 200 epochs with early stopping. Here (CPU, and only GloVe 50-d is
// available): 50-unit character and 100-unit word LSTMs, Adam, batch 32, patience 5; the benchmark
// runs stop earlier still (benchmarks/runs/ldnet.sh says how many epochs).
local lm = import 'lm.libsonnet';

{
  // task: {train, dev, test, encoding, fixture: {train, dev, test}, [split_train, split_dev]}, with
  // paths under LDNET_DATA (`fixture`: the hand-written files under fixtures/ldnet/data); use_lms: bool;
  // stage: 'train' (the usual tagger), 'prune' (layer selection starting from `origin`) or
  // 'finetune' (the tagger of the archive `origin`, usually a pruned one, trained further with its
  // LMs and gates fixed); prune_strength: lambda0, the weight of the sparsity + binary regularizer
  // on the gates; target_layers: lambda1, see below; epochs: the cap on real data (one epoch on the fixtures).
  experiment(task, use_lms, stage='train', origin=null, prune_strength=0.05, target_layers=$.target_layers, epochs=50)::
    local data = std.extVar('LDNET_DATA');
    local fixtures = lm.on_fixtures(data);
    local preset = std.extVar('LDNET_LM_PRESET');
    local char_dim = if fixtures then 4 else 30;
    local char_hidden = if fixtures then 4 else 50;
    local word_hidden = if fixtures then 8 else 100;
    local lm_projection = if fixtures then 6 else 100;
    local word_dim = 50;
    local prune = stage == 'prune';
    local finetune = stage == 'finetune';
    local files = if fixtures then task.fixture else task;
    // Loud fallbacks: fixture data, or the toy LMs on real data (a stage that builds its LMs from the
    // preset; `finetune` takes them from its archive).
    local toy_lms = use_lms && !fixtures && preset == 'tiny' && !finetune;
    local what = { train: 'the tagger', prune: 'layer selection', finetune: 'the fine-tuning stage' }[stage] +
                 (if use_lms then '' else ' (NoLM)');
    local warned(path) = lm.warn_if(fixtures, lm.fixture_data_warning(what),
                                    lm.warn_if(toy_lms, lm.toy_lm_warning, path));
    {
    local reader(split) = {
      type: 'green_conll_tagging',
      encoding: task.encoding,
      token_indexers: {
        tokens: { type: 'single_id', lowercase_tokens: true },
        token_characters: { type: 'characters', min_padding_length: 1 },
      } + (if use_lms then { ldnet_lm: { type: 'green_lm_tokens' } } else {}),
    } + (if split != null then { split: split, dev_size: if fixtures then 4 else 1000 } else {}),

    dataset_reader: reader(std.get(task, 'split_train', null)),
    validation_dataset_reader: reader(std.get(task, 'split_dev', null)),
    train_data_path: warned(data + files.train),
    validation_data_path: data + files.dev,
    test_data_path: data + files.test,
    evaluate_on_test: true,
    // test words get GloVe vectors too (as LD-Net's word map does); their tags are never seen
    datasets_for_vocab_creation: ['train', 'validation', 'test'],
    [if prune || finetune then 'vocabulary']: { type: 'from_files', directory: origin },
    // the archive's own config rebuilds the (pruned) tagger; its LMs and gates stay frozen
    model: if finetune then { type: 'from_archive', archive_file: origin } else {
      type: 'green_ldnet_tagger',
      text_field_embedder: {
        token_embedders: {
          tokens: {
            type: 'embedding',
            embedding_dim: word_dim,
            pretrained_file: data + (if fixtures then '/word_vectors_50d.txt.gz' else '/emb/glove.6B.50d.green_nlp_vocab.txt.gz'),
            trainable: true,
          },
          token_characters: {
            type: 'character_encoding',
            embedding: { embedding_dim: char_dim, vocab_namespace: 'token_characters' },
            encoder: { type: 'lstm', input_size: char_dim, hidden_size: char_hidden, bidirectional: true },
          },
        },
      },
      encoder: {
        type: 'lstm',
        input_size: word_dim + 2 * char_hidden + (if use_lms then lm_projection else 0),
        hidden_size: word_hidden,
        bidirectional: true,
      },
      dropout: 0.5,
      // LD-Net drops LM outputs inside the tagger too: here on the concatenated layer outputs before
      // their projection (on CoNLL-03 it took the LMs' gain over NoLM from +0.40 to +0.60 F1, mean of 2 seeds)
      [if use_lms then 'lm_dropout']: 0.5,
      [if use_lms then 'language_models']: [
        lm.tagger_lm(preset, direction, if prune then null else lm.archive(preset, direction))
        for direction in ['forward', 'backward']
      ],
      [if use_lms then 'lm_projection_dim']: lm_projection,
      [if prune then 'gates_trainable']: true,
      [if prune then 'target_lm_layers']: target_layers,
      [if prune then 'regularizer']: {
        regexes: [['^lm_gates$', { type: 'green_layer_selection', strength: prune_strength, target_layers: target_layers }]],
      },
      [if prune then 'initializer']: {
        regexes: [['.*', { type: 'pretrained', weights_file_path: origin }]],
      },
    },
    data_loader: { batch_sampler: { type: 'bucket', batch_size: if fixtures then 8 else 32 } },
    validation_data_loader: { batch_sampler: { type: 'bucket', batch_size: 128 } },
    trainer: {
      num_epochs: if fixtures then 1 else epochs,
      patience: 5,
      grad_norm: 5.0,
      validation_metric: if prune then '+f1-at-target' else '+f1-measure-overall',
      checkpointer: { keep_most_recent_by_count: 1 },
      // LD-Net's pruning stage: projected SGD with momentum on the gates and the tagger
      optimizer: if prune then {
        type: 'green_projected_sgd',
        lr: 0.015,
        momentum: 0.9,
        parameter_groups: [[['^lm_gates$'], { lr: 0.5 }]],  // gates move faster than the tagger (few epochs here)
      } else { type: 'adam', lr: if finetune then 0.001 else 0.002 },  // fine-tuning: half, from a trained tagger
    },
  },

  // The (TASK, STAGE) matrix of tagger.jsonnet: a task's data and runs folder name, and the
  // layer-selection settings that differ from LD-Net's reference defaults, with why.
  tasks:: {
    ner: { data: $.conll2003, runs: 'conll2003', prune: {
      // 4 layers of 20 rather than the reference target of 2: at 2 the pruned tagger kept half of the
      // LMs' gain over NoLM, at 4 nearly all of it, still far beyond the 5x fewer LM FLOPs asked for
      target_layers: 4,
    } },
    wnut17: { data: $.wnut17, runs: 'wnut17', prune: {
      // not the reference 0.05: with 20 gates and WNUT's 106 batches an epoch, 0.05 left 9, 7 and 14
      // gates on after epochs 1-3 (the task loss kept reopening them; target 2)
      prune_strength: 0.2,
    } },
    chunking: { data: $.conll2000, runs: 'conll2000', prune: {
      // not the reference 0.05: chunking leans on the LMs more than NER does, and at 0.05 ten of the
      // twelve gates were still on after three epochs (the target is two)
      prune_strength: 0.2,
    } },
  },

  // A value of `options` picked by the external variable `what`, or an error listing the values it takes.
  choose(what, options, value):: (import '../matrix.libsonnet').choose(what, options, value),

  // One cell of the matrix. Stages: origin (the tagger with the LMs), nolm (without them, the
  // paper's baseline), prune (layer selection from origin's archive, 10 epochs), finetune (beyond
  // the paper: the pruned archive trained 5 more epochs with its LM layers and gates fixed).
  config(task, stage)::
    local t = $.choose('TASK', $.tasks, task);
    $.choose('STAGE', {
      origin: $.experiment(t.data, use_lms=true),
      nolm: $.experiment(t.data, use_lms=false),
      prune: $.experiment(t.data, use_lms=true, stage='prune', origin=$.origin_archive(t.runs), epochs=10,
                          prune_strength=std.get(t.prune, 'prune_strength', 0.05),
                          target_layers=std.get(t.prune, 'target_layers', $.target_layers)),
      finetune: $.experiment(t.data, use_lms=true, stage='finetune', origin=$.pruned_archive(t.runs), epochs=5),
    }, stage),

  // lambda1 of the paper's margin: stop sparsifying once at most this many LM layers (of both
  // directions together) are on. LD-Net's reference default.
  target_layers: 2,

  conll2003: { train: '/ner/conll2003/eng.train', dev: '/ner/conll2003/eng.testa', test: '/ner/conll2003/eng.testb', encoding: 'IOB1',
               fixture: { train: '/ner_conll2003_train.txt', dev: '/ner_conll2003_dev.txt', test: '/ner_conll2003_test.txt' } },
  wnut17: { train: '/ner/wnut17/wnut17train.conll', dev: '/ner/wnut17/emerging.dev.conll', test: '/ner/wnut17/emerging.test.annotated', encoding: 'BIO',
            fixture: { train: '/ner_wnut17_train.txt', dev: '/ner_wnut17_dev.txt', test: '/ner_wnut17_test.txt' } },
  // CoNLL-2000 has no dev set: 1,000 training sentences are carved out for it, as LD-Net did
  conll2000: { train: '/chunk/conll2000/train.txt', dev: '/chunk/conll2000/train.txt', test: '/chunk/conll2000/test.txt', encoding: 'BIO', split_train: 'train', split_dev: 'dev',
               fixture: { train: '/chunking_train.txt', dev: '/chunking_train.txt', test: '/chunking_test.txt' } },

  // The layer-selection stage's archive after `allennlp green-prune-ldnet` (on the fixtures, where
  // none is committed, the origin tagger stands in: any tagger archive can be fine-tuned).
  pruned_archive(name)::
    if lm.on_fixtures(std.extVar('LDNET_DATA')) then $.origin_archive(name)
    else lm.runs_dir + '/' + name + '/pruned/model.tar.gz',

  origin_archive(name)::
    if lm.on_fixtures(std.extVar('LDNET_DATA')) then
      lm.fixtures_dir + '/archives/tagger_origin' + (if name == 'conll2003' then '' else '_' + name) + '.tar.gz'
    else lm.runs_dir + '/' + name + '/origin/model.tar.gz',
}
