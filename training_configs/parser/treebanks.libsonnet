// The treebanks the parser family is trained on, and the student builder that the parameterised
// student.jsonnet and the experiments' variants share: where each treebank's files are, its word
// embeddings, where its teacher's run is expected, the student sizes picked for it, and the seeds.
local lib = import 'biaffine_parser.libsonnet';
local data = std.extVar('GREEN_NLP_DATA');
local glove = { pretrained_file: data + '/emb/glove.6B.50d.green_nlp_vocab.txt.gz', lowercase: true };
local learned = { pretrained_file: null, lowercase: false };  // no pretrained vectors for the language here

{
  treebanks:: {
    ud_ewt: glove { folder: 'UD_English-EWT', files: 'en_ewt', sizes: import 'student_sizes/ud_ewt.json' },
    ud_wolof_wtb: learned { folder: 'UD_Wolof-WTB', files: 'wo_wtb', sizes: import 'student_sizes/ud_wolof_wtb.json' },
    ud_tamil_ttb: learned { folder: 'UD_Tamil-TTB', files: 'ta_ttb', sizes: import 'student_sizes/ud_tamil_ttb.json' },
    ud_chinese_gsd_v1_3: learned {
      folder: 'UD_Chinese-GSD_v1.3', files: 'zh', sizes: import 'student_sizes/ud_chinese_gsd_v1_3.json',
    },
  },

  // AllenNLP's (random, numpy, torch) seeds: 1 is its default triple, which the paper-style students
  // used (and so leave unset); 2 and 3 are the ones the seed studies used.
  seeds:: {
    '1': {},
    '2': { random_seed: 23370, numpy_seed: 2337, pytorch_seed: 233 },
    '3': { random_seed: 31337, numpy_seed: 3133, pytorch_seed: 313 },
  },

  // `runs/parser/<treebank>`: the teacher's run (teacher/model.tar.gz, teacher/vocabulary) and the students'.
  runs(treebank):: 'runs/parser/' + treebank,

  choose(what, options, value):: (import '../matrix.libsonnet').choose(what, options, value),

  // D-<size> (distilled) or B-<size> (baseline, no teacher) for a treebank, at `size` % of its teacher's
  // trainable parameters; `dropout` overrides the distilled/baseline choice (see lib.student).
  student(treebank, size, distilled, seed='1', dropout=null)::
    local tb = self.choose('TREEBANK', self.treebanks, treebank);
    local prefix = data + '/ud/' + tb.folder + '/' + tb.files + '-ud-';
    lib.student(
      train=prefix + 'train.conllu', dev=prefix + 'dev.conllu', test=prefix + 'test.conllu',
      size=self.choose('SIZE', tb.sizes.students, std.toString(size)),
      teacher_archive=self.runs(treebank) + '/teacher/model.tar.gz',
      distilled=distilled,
      pretrained_file=tb.pretrained_file, lowercase=tb.lowercase,
      dropout=dropout,
    ) + self.choose('SEED', self.seeds, std.toString(seed)),
}
