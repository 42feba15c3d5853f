// A raw-text EWT student trained on gold and silver sentences together (docs/parser.md, "Teacher-scale
// distillation"): the model of ud_ewt_raw_text_student.jsonnet at the D-<SIZE> dims of
// student_sizes/ud_ewt.json, its teacher the raw-text MiniLM parser (ud_ewt_minilm_teacher.jsonnet),
// its silver text parsed once by that teacher (allennlp green-label-teacher, a parser cache).
// Three external variables (all needed; Jsonnet has no defaults):
//   SIZE    20 | 40 | 60 | 80
//   SILVER  how many silver sentences (the first of the caches); ignored with MODE=none
//   MODE    soft: gold sentences KL + CE against the teacher run beside the student, silver sentences
//                 the teacher's stored top-k distributions only (no CE)           -> D-<SIZE>
//           hard: self-training, the teacher's 1-best trees on the same silver as plain targets
//           none: gold only, no teacher                                         -> B-<SIZE>
// Every mode has the same dims, dropout and number of updates (EPOCHS x BATCHES_PER_EPOCH batches of 32
// sentences, the data cycled as needed), so the rows compare at equal size and budget. Gold makes half of
// the sentences read (gold_share 0.5: the gold set repeated) whatever SILVER is.
//   SIZE=20 SILVER=100000 MODE=soft allennlp train training_configs/parser/ud_ewt_silver_student.jsonnet \
//     -s runs/parser/ud_ewt/silver_d20_100k --include-package green_nlp
local lib = import 'biaffine_parser.libsonnet';
local treebanks = import 'treebanks.libsonnet';
local size = treebanks.choose('SIZE', (import 'student_sizes/ud_ewt.json').students, std.extVar('SIZE'));
local mode = treebanks.choose('MODE', { soft: 'soft', hard: 'hard', none: 'none' }, std.extVar('MODE'));
local silver = if mode == 'none' then 0 else std.parseInt(std.extVar('SILVER'));
local runs = treebanks.runs('ud_ewt');
local teacher = runs + '/minilm_teacher/model.tar.gz';
local caches = [runs + '/silver/ewt_train.jsonl', runs + '/silver/imdb_unsup.jsonl'];
local data = std.extVar('GREEN_NLP_DATA');
local ewt = data + '/ud/UD_English-EWT/en_ewt-ud-';
local pieces = { type: 'pretrained_transformer_mismatched', model_name: std.extVar('GREEN_NLP_MINILM'), max_length: 256 };
local epochs = 14;
local batches_per_epoch = 1000;

local base = lib.parser(
  train=ewt + 'train.conllu', dev=ewt + 'dev.conllu', test=ewt + 'test.conllu',
  word_dim=50, pretrained_file=data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase=true,
  upos_dim=0, predict_upos=true, char_dim=32, char_filters=100,
  lstm_hidden=size.lstm_hidden, lstm_layers=size.lstm_layers, arc_dim=size.arc_dim, label_dim=size.label_dim,
  epochs=epochs, patience=epochs,
  // the teacher's relation, UPOS and character indices (the silver cache stores the first two; the teacher
  // reads the student's characters beside it), plus the student's words; no new characters from silver text
  vocabulary={ type: 'extend', directory: teacher, min_count: { token_characters: 1000000000 } },
);
base + {
  dataset_reader+: {
    type: 'green_gold_silver_dependencies',
    silver_caches: caches,
    silver_sentences: silver,
    gold_share: if silver > 0 then 0.5 else null,
    silver_targets: if mode == 'hard' then 'hard' else 'soft',
    teacher_archive: teacher,
    // the teacher scores the gold sentences beside the student: its word pieces (the student ignores them)
    [if mode == 'soft' then 'token_indexers']+: { transformer: pieces },
  },
  data_loader+: { batches_per_epoch: batches_per_epoch },
  trainer+: {
    [if mode == 'soft' then 'callbacks']: [{ type: 'green_silver_distillation', teacher_archive: teacher }],
  },
}
