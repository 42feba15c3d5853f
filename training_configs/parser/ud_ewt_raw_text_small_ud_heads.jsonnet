// The shipped raw-text parser's recipe (ud_ewt_raw_text_small.jsonnet: UD English-EWT, words +
// characters, joint UPOS head, the B-20 sizes) with full UD output: heads for LEMMA (edit scripts),
// FEATS (UFeats strings) and XPOS on the same encoder, trained jointly, loss weight 1 each; the
// archive also carries EWT train's (form, UPOS) -> lemma dictionary, consulted before the lemma
// head's script (dev: +2.4 lemma points, benchmarks/results/parser_lemma_dictionary_dev.md).
local lib = import 'biaffine_parser.libsonnet';
lib.with_ud_heads(import 'ud_ewt_raw_text_small.jsonnet', lemma_dictionary=true)
