// LD-Net layer selection on conll2000 (see ldnet_ner_prune.jsonnet): starts from
// $LDNET_RUNS/conll2000/origin/model.tar.gz (or the fixture tagger archive on the fixtures).
// Regularizer strength 0.2, not the reference 0.05: chunking leans on the LMs more than NER does,
// and at 0.05 ten of the twelve gates were still on after three epochs (the target is two).
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.conll2000, use_lms=true, stage='prune', origin=tagger.origin_archive('conll2000'),
                  prune_strength=0.2) + {
  trainer+: { num_epochs: if std.length(std.findSubstr('fixtures/ldnet', std.extVar('LDNET_DATA'))) > 0 then 1 else 10 },
}
