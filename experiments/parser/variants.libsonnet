// Every parser run of the studies beyond the paper (experiments/README.md), built from the same student
// builder as training_configs/parser/student.jsonnet. `ablations` is keyed by the run's name
// (<treebank>_<name>, trained into runs/parser/<treebank>/ablations/<name> by
// experiments/parser/run_ablations.sh); `fold_teachers` by the cross-fitting teacher set.
// ablation.jsonnet and fold_teacher.jsonnet pick one entry by an external variable.
local lib = import '../../training_configs/parser/biaffine_parser.libsonnet';
local tb = import '../../training_configs/parser/treebanks.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');

local distillation = 'green_parser_distillation';
// `own_epochs` (hidden, so not in the config): the run keeps this epoch count instead of the cap its script passes
local epochs(n) = { trainer+: { num_epochs: n }, own_epochs:: true };
// the teacher's vocabulary read from its run folder, so a run needs no teacher archive for it
local vocabulary_folder(treebank) = {
  vocabulary: { type: 'from_files', directory: tb.runs(treebank) + '/teacher/vocabulary' },
};
// soft targets for each training sentence from the fold teacher that did not train on it
local cross_fitted(treebank, folds, teachers='fold_teachers') = {
  trainer+: {
    callbacks: [{
      type: distillation,
      cross_fit_teacher_archives: ['%s/%s/fold%d/model.tar.gz' % [tb.runs(treebank), teachers, fold]
                                   for fold in std.range(0, folds - 1)],
    }],
  },
};
local wolof_callback(extra) = {
  trainer+: { callbacks: [{ type: distillation, teacher_archive: tb.runs('ud_wolof_wtb') + '/teacher/model.tar.gz' } + extra] },
};
local folds = { ud_ewt: 4, ud_wolof_wtb: 5, ud_ewt_minilm: 2 };

// A stronger EWT teacher, to test whether the D-x vs B-x gap is limited by the teacher: the BiLSTM
// teacher scores only 0.5-1.1 LAS above the B-x students. all-MiniLM-L6-v2 (the one transformer available
// offline, fine-tuned; word pieces averaged per word, a learned mix of its layers) beside the same GloVe
// word and gold UPOS inputs, one BiLSTM layer over them, and the BiLSTM teacher's vocabulary.
local pieces = { type: 'pretrained_transformer_mismatched', model_name: std.extVar('GREEN_NLP_MINILM'), max_length: 256 };
local minilm_teacher =
  local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
  lib.parser(
    train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
    word_dim=50, pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
    upos_dim=100, lstm_layers=1,
    vocabulary=vocabulary_folder('ud_ewt').vocabulary,
  // fine-tuning a transformer needs few epochs; the scheduler decays to 0 over them
  ) + epochs(6) + {
    dataset_reader+: { token_indexers+: { transformer: pieces } },
    validation_dataset_reader+: { token_indexers+: { transformer: pieces } },
    model+: {
      text_field_embedder+: {
        token_embedders+: { transformer: pieces { last_layer_only: false, train_parameters: true } },
      },
      encoder+: { input_size: 50 + 384 + 100 },
    },
    trainer+: {
      // the transformer fine-tunes at a small rate, the rest at the parser's; both warm up, then decay
      optimizer+: { parameter_groups: [[['transformer_model'], { lr: 8e-5 }]] },
      learning_rate_scheduler: { type: 'linear_with_warmup', warmup_steps: 300 },
      patience: null,
    },
  };

// A paper-style EWT D-x distilled from the MiniLM teacher; the training reader also yields the teacher's
// word pieces (the teacher scores the student's batches), the validation reader does not.
local from_minilm(size) = tb.student('ud_ewt', size, true) + vocabulary_folder('ud_ewt') + {
  dataset_reader+: { token_indexers+: { transformer: pieces } },
  trainer+: {
    callbacks: [{ type: distillation, teacher_archive: tb.runs('ud_ewt') + '/ablations/minilm_teacher/model.tar.gz' }],
  },
};
local minilm_cross_fitted(size) = from_minilm(size) + cross_fitted('ud_ewt', folds.ud_ewt_minilm, 'minilm_fold_teachers');
// the training set plus 8,936 CoNLL-2000 sentences parsed by the MiniLM teacher (experiments/parser_transfer_set.py,
// experiments/parser/run_transfer.sh); 9 epochs over 1.71x the sentences are about the 16-epoch B-20's updates
local transfer = { train_data_path: 'runs/parser/ud_ewt/transfer/train_plus_conll2000_silver.conllu' } + epochs(9);
local ewt_baseline(size) = tb.student('ud_ewt', size, false) + vocabulary_folder('ud_ewt');
local ewt_cross_fitted(size) = tb.student('ud_ewt', size, true) + vocabulary_folder('ud_ewt') + cross_fitted('ud_ewt', folds.ud_ewt);
local wolof_cross_fitted(size, dropout=null) =
  tb.student('ud_wolof_wtb', size, true, dropout=dropout) + cross_fitted('ud_wolof_wtb', folds.ud_wolof_wtb);
local with_seeds(name, config, seeds) = { [name + '_seed' + seed]: config + tb.seeds[seed] for seed in seeds };

{
  ablations: {
    // training budget: more epochs than the students' cap
    ud_chinese_gsd_v1_3_b20_20_epochs: tb.student('ud_chinese_gsd_v1_3', 20, false) + epochs(20),
    ud_chinese_gsd_v1_3_d20_20_epochs: tb.student('ud_chinese_gsd_v1_3', 20, true) + epochs(20),
    ud_chinese_gsd_v1_3_d20_dropout_20_epochs: tb.student('ud_chinese_gsd_v1_3', 20, true, dropout=0.33) + epochs(20),
    ud_ewt_b20_24_epochs: tb.student('ud_ewt', 20, false) + epochs(24),
    ud_ewt_d20_24_epochs: tb.student('ud_ewt', 20, true) + epochs(24),
    ud_wolof_wtb_b20_60_epochs: tb.student('ud_wolof_wtb', 20, false) + epochs(60),
    ud_wolof_wtb_d20_60_epochs: tb.student('ud_wolof_wtb', 20, true) + epochs(60),
    ud_wolof_wtb_d20_dropout_60_epochs: tb.student('ud_wolof_wtb', 20, true, dropout=0.33) + epochs(60),
    ud_wolof_wtb_d20_dropout_100_epochs: tb.student('ud_wolof_wtb', 20, true, dropout=0.33) + epochs(100),
    // distilled but keeping the teacher's dropout: differs from B-x only in the teacher's loss terms
    ud_ewt_d20_dropout: tb.student('ud_ewt', 20, true, dropout=0.33),
    ud_wolof_wtb_d20_dropout: tb.student('ud_wolof_wtb', 20, true, dropout=0.33),
    // ... with temperature 2 (KL scaled by T^2), or annealed from the teacher to the gold trees (Clark et al. 2019)
    ud_wolof_wtb_d20_dropout_t2: tb.student('ud_wolof_wtb', 20, true, dropout=0.33) + wolof_callback({ temperature: 2.0 }),
    ud_wolof_wtb_d20_dropout_annealing:
      tb.student('ud_wolof_wtb', 20, true, dropout=0.33) + wolof_callback({ teacher_annealing: true }),
    // a stronger teacher, and its students
    ud_ewt_minilm_teacher: minilm_teacher,
    ud_ewt_d20_minilm_cross_fit_transfer: minilm_cross_fitted(20) + transfer,
    ud_ewt_d40_minilm_cross_fit_transfer: minilm_cross_fitted(40) + transfer,
  }
  + { ['ud_chinese_gsd_v1_3_d%d_dropout' % size]: tb.student('ud_chinese_gsd_v1_3', size, true, dropout=0.33)
      for size in [20, 40, 60, 80] }
  + { ['ud_ewt_d%d_cross_fit' % size]: ewt_cross_fitted(size) for size in [20, 40, 60, 80] }
  + { ['ud_ewt_d%d_minilm_teacher' % size]: from_minilm(size) for size in [20, 40, 60, 80] }
  + { ['ud_ewt_d%d_minilm_cross_fit' % size]: minilm_cross_fitted(size) for size in [20, 40, 60, 80] }
  + { ['ud_wolof_wtb_d%d_cross_fit' % size]: wolof_cross_fitted(size) for size in [20, 40, 60, 80] }
  + { ['ud_wolof_wtb_d%d_cross_fit_dropout' % size]: wolof_cross_fitted(size, dropout=0.33) for size in [20, 40, 60, 80] }
  // other seeds, to tell a result from seed noise
  + with_seeds('ud_ewt_b20', ewt_baseline(20), ['2', '3'])
  + with_seeds('ud_ewt_b40', ewt_baseline(40), ['2', '3'])
  + with_seeds('ud_ewt_b60', ewt_baseline(60), ['2', '3'])
  + with_seeds('ud_ewt_b80', ewt_baseline(80), ['2'])
  + with_seeds('ud_ewt_d20_cross_fit', ewt_cross_fitted(20), ['2', '3'])
  + with_seeds('ud_ewt_d40_cross_fit', ewt_cross_fitted(40), ['2', '3'])
  + with_seeds('ud_ewt_d20_minilm_cross_fit', minilm_cross_fitted(20), ['2', '3'])
  + with_seeds('ud_ewt_d40_minilm_cross_fit', minilm_cross_fitted(40), ['2', '3'])
  + with_seeds('ud_ewt_d60_minilm_cross_fit', minilm_cross_fitted(60), ['2', '3'])
  + with_seeds('ud_ewt_d80_minilm_cross_fit', minilm_cross_fitted(80), ['2'])
  + with_seeds('ud_ewt_d20_minilm_cross_fit_transfer', minilm_cross_fitted(20) + transfer, ['2', '3'])
  + with_seeds('ud_wolof_wtb_b20', tb.student('ud_wolof_wtb', 20, false), ['2'])
  + with_seeds('ud_wolof_wtb_d20_cross_fit', wolof_cross_fitted(20), ['2']),

  // Cross-fitting teachers: the teacher's config trained on the training set minus one fold (override
  // dataset_reader.leave_out_fold), so it gives soft targets on that fold's sentences without having seen
  // their trees. All share the full teacher's vocabulary, so label indices agree with it and its students.
  // EWT has 4 folds (on 2 cores the fold teachers train as two pairs), Wolof 5, the MiniLM teacher 2.
  fold_teachers: {
    ud_ewt: (import '../../training_configs/parser/ud_ewt.jsonnet') + vocabulary_folder('ud_ewt')
            + { dataset_reader+: { cross_fit_folds: folds.ud_ewt, leave_out_fold: 0 } },
    ud_wolof_wtb: (import '../../training_configs/parser/ud_wolof_wtb.jsonnet') + vocabulary_folder('ud_wolof_wtb')
                  + { dataset_reader+: { cross_fit_folds: folds.ud_wolof_wtb, leave_out_fold: 0 } },
    ud_ewt_minilm: minilm_teacher + { dataset_reader+: { cross_fit_folds: folds.ud_ewt_minilm, leave_out_fold: 0 } },
  },
}
