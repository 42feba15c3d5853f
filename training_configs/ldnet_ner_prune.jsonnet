// LD-Net layer selection on CoNLL-03 (paper Sec. 2.4 / 3.2 "Model pruning"): starts from the
// trained tagger ($LDNET_RUNS/conll2003/origin/model.tar.gz, or the fixture archive), LMs frozen,
// one gate per LM layer trained with the margin + binary regularizer by projected SGD with
// momentum. Then `allennlp green-prune-ldnet IN OUT` deletes the layers whose gate is 0.
local tagger = import 'ldnet/tagger.libsonnet';
// 4 layers of 20 rather than the reference target of 2: at 2 the pruned tagger kept half of the LMs'
// gain over NoLM, at 4 nearly all of it, still far beyond the 5x fewer LM FLOPs asked for
tagger.experiment(tagger.conll2003, use_lms=true, stage='prune', origin=tagger.origin_archive('conll2003'),
                  target_layers=4) + {
  trainer+: { num_epochs: if std.length(std.findSubstr('fixtures/ldnet', std.extVar('LDNET_DATA'))) > 0 then 1 else 10 },
}
