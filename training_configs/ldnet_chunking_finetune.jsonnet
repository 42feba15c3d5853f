// Beyond the paper: the pruned conll2000 tagger ($LDNET_RUNS/conll2000/pruned/model.tar.gz, written by
// `allennlp green-prune-ldnet` after ldnet_chunking_prune.jsonnet) trained a few more epochs with its
// kept LM layers and gates fixed, so the word BiLSTM and CRF adapt to the LM features that are left.
// LD-Net itself stops after layer selection. On the fixtures the origin tagger stands in.
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.conll2000, use_lms=true, stage='finetune', origin=tagger.pruned_archive('conll2000')) + {
  trainer+: { num_epochs: if std.length(std.findSubstr('fixtures/ldnet', std.extVar('LDNET_DATA'))) > 0 then 1 else 5 },
}
