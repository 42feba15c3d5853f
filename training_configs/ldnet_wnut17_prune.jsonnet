// LD-Net layer selection on wnut17 (see ldnet_ner_prune.jsonnet): starts from
// runs/ldnet/wnut17/origin/model.tar.gz (or the fixture tagger archive on the fixtures).
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.wnut17, use_lms=true, stage='prune', origin=tagger.origin_archive('wnut17')) + {
  trainer+: { num_epochs: if std.length(std.findSubstr('fixtures/ldnet', std.extVar('LDNET_DATA'))) > 0 then 1 else 10 },
}
