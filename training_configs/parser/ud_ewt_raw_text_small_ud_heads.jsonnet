// The shipped raw-text parser's recipe (ud_ewt_raw_text_small.jsonnet: UD English-EWT, words +
// characters, joint UPOS head, the B-20 sizes) with full UD output: heads for LEMMA (edit scripts),
// FEATS (UFeats strings) and XPOS on the same encoder, trained jointly; the archive also carries
// EWT train's (form, UPOS) -> lemma dictionary, consulted before the lemma head's script (dev: +2.4
// lemma points, benchmarks/results/parser_lemma_dictionary_dev.md).
// Loss weight 0.3 each, chosen on EWT dev (benchmarks/results/parser_ud_heads_weights.md): at
// weight 1 the heads cost 1.6 LAS against the same recipe without them (gold tokens, 81.61 vs
// 83.24); at 0.3 that falls to 0.1 (83.12), and MLAS rises (raw text 69.15 -> 70.08) for 0.66 UFeats.
local lib = import 'biaffine_parser.libsonnet';
lib.with_ud_heads(
  import 'ud_ewt_raw_text_small.jsonnet',
  weights={ lemmas: 0.3, feats: 0.3, xpos: 0.3 },
  lemma_dictionary=true,
)
