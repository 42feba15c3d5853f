// LD-Net layer selection on conll2000 (see ldnet_ner_prune.jsonnet): starts from
// runs/ldnet/conll2000/origin/model.tar.gz (or the fixture tagger archive on the fixtures).
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.conll2000, use_lms=true, stage='prune', origin=tagger.origin_archive('conll2000')) + {
  trainer+: { num_epochs: if std.length(std.findSubstr('fixtures/ldnet', std.extVar('LDNET_DATA'))) > 0 then 1 else 10 },
}
