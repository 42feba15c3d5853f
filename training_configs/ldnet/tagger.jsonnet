// Every LD-Net tagger of the results, picked by two Jsonnet external variables (AllenNLP passes the
// environment to Jsonnet, and Jsonnet has no default for a missing one, so both are needed):
//   TASK   ner: CoNLL-03 NER (IOB1 in the files, trained and scored as BIOES)
//          wnut17: WNUT-17 (BIO files)
//          chunking: CoNLL-2000 (no dev set: 1,000 training sentences carved out, as LD-Net did)
//   STAGE  origin: the tagger with the frozen forward and backward densely connected LMs
//          nolm: the same tagger without LMs (the paper's NoLM baseline)
//          prune: layer selection (paper Sec. 2.4 / 3.2) from origin's archive,
//                 $LDNET_RUNS/<dataset>/origin/model.tar.gz: LMs frozen, one gate per LM layer trained
//                 with the margin + binary regularizer by projected SGD with momentum; then
//                 `allennlp green-prune-ldnet IN OUT` deletes the layers whose gate is 0
//          finetune: beyond the paper, the pruned tagger ($LDNET_RUNS/<dataset>/pruned/model.tar.gz)
//                 trained a few more epochs with its kept LM layers and gates fixed, so the word BiLSTM
//                 and CRF adapt to the LM features that are left
//   TASK=ner STAGE=origin allennlp train training_configs/ldnet/tagger.jsonnet -s runs/ldnet/conll2003/origin \
//     --include-package green_nlp
// Works from a fresh clone and from any folder: the data (LDNET_DATA: the shared data when it holds
// CoNLL-03, else fixtures/ldnet/data) and the LMs (LDNET_LM_PRESET: `cpu`, the trained LMs under
// LDNET_RUNS, when both exist, else `tiny`, the committed fixture archives) are filled in by
// `--include-package green_nlp`, with a WARNING for each fallback; on the fixtures the stages that
// start from an archive use the committed fixture tagger. See docs/ldnet.md.
local tagger = import 'tagger.libsonnet';

tagger.config(task=std.extVar('TASK'), stage=std.extVar('STAGE'))
