// LD-Net tagger, wnut17 (wnut17_nolm). NoLM = the same tagger without language models (the paper's baseline).
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.wnut17, use_lms=false)
