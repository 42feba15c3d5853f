// D-20 of UD English-EWT distilled from the 2 cross-fitting MiniLM teachers (as
// ud_ewt_d20_minilm_cross_fit) on the training set plus a transfer set: the 8,936 CoNLL-2000 (WSJ)
// sentences, UPOS from their PTB tags (benchmarks/parser_transfer_set.py), parsed by the full MiniLM
// teacher into silver trees (benchmarks/runs/parser_transfer.sh writes the joined file). On a silver
// sentence the cross-entropy terms learn the MiniLM teacher's tree and the KL terms a fold teacher's
// distributions; neither teacher trained on it. 9 epochs over 1.71x the sentences are 15.4 epochs'
// worth of the 16-epoch B-20's updates (batches of 32 sentences), so the comparison does not buy
// the student more steps.
(import 'ud_ewt_d20_minilm_cross_fit.jsonnet') + {
  train_data_path: 'runs/parser/ud_ewt/transfer/train_plus_conll2000_silver.conllu',
  trainer+: { num_epochs: 9 },
}
