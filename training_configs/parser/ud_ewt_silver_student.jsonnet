// A raw-text EWT student trained on gold and silver sentences together (docs/parser.md, "Teacher-scale
// distillation"): the model of ud_ewt_raw_text_student.jsonnet at the D-<SIZE> dims of
// student_sizes/ud_ewt.json, with the full-UD heads of ud_ewt_raw_text_small_ud_heads.jsonnet (LEMMA,
// FEATS, XPOS at loss weight 0.3, the lemma dictionary), its silver text parsed once by the raw-text
// MiniLM teacher (ud_ewt_minilm_teacher.jsonnet) into parser caches: EWT train's own sentences, then
// IMDB's unlabelled reviews (scripts/teacher_silver.sh writes both, on a GPU where there is one).
// The students need only what that script leaves in runs/parser/ud_ewt/: the caches, the teacher's
// vocabulary (its relation, UPOS and character indices, which the caches' distributions use) and the
// teacher archive's sha256 (a cache from another teacher is refused). The teacher itself is not run.
// Three external variables (all needed; Jsonnet has no defaults):
//   SIZE    20 | 40 | 60 | 80
//   SILVER  how many silver sentences (the first of the caches, in order); ignored with MODE=none
//   MODE    soft: gold sentences CE, silver sentences KL to the teacher's stored top-k distributions
//                 (arcs, labels at the kept heads, UPOS), no CE                    -> D-<SIZE>
//           hard: self-training, the teacher's 1-best trees on the same silver as plain targets
//           none: gold only, no teacher                                         -> B-<SIZE>
// Every mode has the same dims (word vocabulary capped at 16,000, characters the teacher's), dropout
// and number of updates (EPOCHS x BATCHES_PER_EPOCH batches of 32 sentences, the data cycled as
// needed), so the rows compare at equal size and budget. Gold makes half of the sentences read
// (gold_share 0.5: the gold set repeated) whatever SILVER is. The LEMMA / FEATS / XPOS heads learn from
// gold sentences only (the teacher predicts none of them).
//   SIZE=20 SILVER=60000 MODE=soft allennlp train training_configs/parser/ud_ewt_silver_student.jsonnet \
//     -s runs/parser/ud_ewt/silver_d20_60k --include-package green_nlp
local lib = import 'biaffine_parser.libsonnet';
local treebanks = import 'treebanks.libsonnet';
local size = treebanks.choose('SIZE', (import 'student_sizes/ud_ewt.json').students, std.extVar('SIZE'));
local mode = treebanks.choose('MODE', { soft: 'soft', hard: 'hard', none: 'none' }, std.extVar('MODE'));
local silver = if mode == 'none' then 0 else std.parseInt(std.extVar('SILVER'));
local runs = treebanks.runs('ud_ewt');
local teacher = runs + '/minilm_teacher';
local caches = [runs + '/silver/ewt_train.jsonl', runs + '/silver/imdb_unsup.shard*.jsonl'];
local data = std.extVar('GREEN_NLP_DATA');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
// 6,000 updates: about 15 passes over the gold set for B-<SIZE> (the gold-only recipe makes 14), and what
// six students training side by side on one GPU finish in about five minutes
local epochs = 10;
local batches_per_epoch = 600;

local base = lib.parser(
  train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
  word_dim=50, pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
  upos_dim=0, predict_upos=true, char_dim=32, char_filters=100,
  lstm_hidden=size.lstm_hidden, lstm_layers=size.lstm_layers, arc_dim=size.arc_dim, label_dim=size.label_dim,
  epochs=epochs, patience=epochs,
) + {
  dataset_reader+: {
    type: 'green_gold_silver_dependencies',
    silver_caches: caches,
    silver_sentences: silver,
    gold_share: if silver > 0 then 0.5 else null,
    silver_targets: if mode == 'hard' then 'hard' else 'soft',
    teacher_fingerprint: teacher + '/model.tar.gz.sha256',
  },
  data_loader+: { batches_per_epoch: batches_per_epoch },
  trainer+: {
    // no teacher_archive: gold sentences train on CE alone, silver ones on the stored distributions
    [if mode == 'soft' then 'callbacks']: [{ type: 'green_silver_distillation' }],
  },
};
lib.with_ud_heads(base, weights={ lemmas: 0.3, feats: 0.3, xpos: 0.3 }, lemma_dictionary=true) + {
  vocabulary+: {
    directory: teacher + '/vocabulary',
    min_count: { token_characters: 1000000000 },
    max_vocab_size: { tokens: 16000 },
  },
}
