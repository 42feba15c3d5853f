// The design card's LD-Net command, kept at the path users type:
//   allennlp train training_configs/ldnet_ner.jsonnet -s runs/ldnet_ner --include-package green_nlp
// LD-Net (Liu et al. 2018) on CoNLL-03 NER: the `origin` stage of training_configs/ldnet/tagger.jsonnet
// (char-LSTM + words + the frozen forward and backward densely connected LMs -> BiLSTM-CRF, BIOES).
// Data and LMs are filled in as for tagger.jsonnet: the shared data when it holds CoNLL-03, else the
// committed fixtures with a WARNING saying so; the other tasks and stages (nolm, prune, finetune)
// are TASK/STAGE of tagger.jsonnet (docs/ldnet.md).
local tagger = import 'ldnet/tagger.libsonnet';

tagger.config(task='ner', stage='origin')
