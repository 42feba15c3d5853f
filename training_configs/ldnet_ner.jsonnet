// LD-Net tagger on CoNLL-03 NER (IOB1 in the files, trained and scored as BIOES), with frozen
// forward and backward densely connected LMs. Works from a fresh clone:
// - data: LDNET_DATA (default: the shared data when it holds CoNLL-03, else fixtures/ldnet/data);
// - LMs: LDNET_LM_PRESET (default: `cpu`, i.e. runs/ldnet/lm_{forward,backward}/model.tar.gz, when
//   both exist, else `tiny`, the committed fixture archives). See docs/ldnet.md.
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.conll2003, use_lms=true)
