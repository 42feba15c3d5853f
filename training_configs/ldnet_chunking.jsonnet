// LD-Net tagger, conll2000 (chunking). NoLM = the same tagger without language models (the paper's baseline).
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.conll2000, use_lms=true)
