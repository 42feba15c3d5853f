// Beyond the paper: the pruned wnut17 tagger ($LDNET_RUNS/wnut17/pruned/model.tar.gz, written by
// `allennlp green-prune-ldnet` after ldnet_wnut17_prune.jsonnet) trained a few more epochs with its
// kept LM layers and gates fixed, so the word BiLSTM and CRF adapt to the LM features that are left.
// LD-Net itself stops after layer selection. On the fixtures the origin tagger stands in.
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.wnut17, use_lms=true, stage='finetune', origin=tagger.pruned_archive('wnut17')) + {
  trainer+: { num_epochs: if std.length(std.findSubstr('fixtures/ldnet', std.extVar('LDNET_DATA'))) > 0 then 1 else 5 },
}
