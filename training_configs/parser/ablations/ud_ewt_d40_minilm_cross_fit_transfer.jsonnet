// D-40 of UD English-EWT on the training set plus the CoNLL-2000 silver transfer set; see
// ud_ewt_d20_minilm_cross_fit_transfer.jsonnet.
(import 'ud_ewt_d40_minilm_cross_fit.jsonnet') + {
  train_data_path: 'runs/parser/ud_ewt/transfer/train_plus_conll2000_silver.conllu',
  trainer+: { num_epochs: 9 },
}
