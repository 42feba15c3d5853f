// LD-Net layer selection on wnut17 (see ldnet_ner_prune.jsonnet): starts from
// $LDNET_RUNS/wnut17/origin/model.tar.gz (or the fixture tagger archive on the fixtures).
// Regularizer strength 0.2, not the reference 0.05: with 20 gates and WNUT's 106 batches an epoch,
// 0.05 left 9, 7 and 14 gates on after epochs 1-3 (the task loss kept reopening them; target 2).
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.wnut17, use_lms=true, stage='prune', origin=tagger.origin_archive('wnut17'),
                  prune_strength=0.2) + {
  trainer+: { num_epochs: if std.length(std.findSubstr('fixtures/ldnet', std.extVar('LDNET_DATA'))) > 0 then 1 else 10 },
}
