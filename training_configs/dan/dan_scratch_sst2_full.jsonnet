// DAN from scratch on SST-2, on the labeled phrases of the GPU teacher (teacher_sst2_full.jsonnet):
// all 67,349 training phrases, cross-entropy; dev and test as the teacher. Same n-gram vocabulary
// as its DAN(KD): the top 200,000 (1,4)-grams of the distillation corpus's texts. Sizes as
// dan_scratch_sst2.jsonnet (|V| 200k, d 200, batch 256).
local lib = import 'dan.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.dan('scratch', data + 'train.tsv', data + 'dev.tsv', data + 'test.tsv',
        max_features=200000, vocab_text_paths=['runs/dan/sst2_full/kd*.teacher.jsonl'],
        embedding_dim=200, batch_size=256, lr=1e-3, epochs=15, patience=4, dropout=0.2, ngram_dropout=0.1,
        label_names=labels.sst2)
