// LD-Net tagger, conll2003 (ner_nolm). NoLM = the same tagger without language models (the paper's baseline).
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.conll2003, use_lms=false)
