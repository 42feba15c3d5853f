// DAN from scratch on SST-2 (Ye et al. 2022, "DAN (scratch)"): the teacher's labeled training
// phrases only (the first 10,000, see teacher_sst2.jsonnet), cross-entropy. Same n-gram
// vocabulary as DAN(KD), so the comparison isolates distillation: the top 200,000 (1,4)-grams of
// the distillation corpus's texts (the teacher caches; their logits are not used here).
// CPU-sized, and said so: |V| 200k (paper 1M), d 200 (paper 1,000), batch 256 (paper 2,048);
// still 40M parameters, larger than the 22.7M-parameter teacher.
local lib = import 'dan.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.dan('scratch', data + 'train.tsv', data + 'dev.tsv', data + 'test.tsv', max_train_examples=10000,
        max_features=200000, vocab_text_paths=['runs/dan/sst2/kd*.teacher.jsonl'],
        embedding_dim=200, batch_size=256, lr=1e-3, epochs=15, patience=4, dropout=0.2, ngram_dropout=0.1,
        label_names=labels.sst2)
