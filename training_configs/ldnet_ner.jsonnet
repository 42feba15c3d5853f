// LD-Net tagger on CoNLL-03 NER (IOB1 in the files, trained and scored as BIOES), with frozen
// forward and backward densely connected LMs. Works from a fresh clone and from any folder:
// - data: LDNET_DATA (default: the shared data when it holds CoNLL-03, else fixtures/ldnet/data,
//   with a WARNING saying so);
// - LMs: LDNET_LM_PRESET (default: `cpu`, i.e. $LDNET_RUNS/lm_{forward,backward}/model.tar.gz, the
//   clone's runs/ldnet unless set, when both exist, else `tiny`, the committed fixture archives; on
//   real data with a WARNING giving the commands that build the real LMs). See docs/ldnet.md.
local tagger = import 'ldnet/tagger.libsonnet';
tagger.experiment(tagger.conll2003, use_lms=true)
