// DAN(KD) on SST-2 from the GPU teacher (teacher_sst2_full.jsonnet): KL to its logits over all
// 67,349 training phrases + 300,000 sentences (4-40 spaCy tokens) of IMDB's unlabeled reviews, all
// labeled on the GPU (bash benchmarks/runs/dan.sh sst2_full: `green-label-teacher --cuda-device 0`,
// the sentences in 6 shards, kd_imdb_<i>.teacher.jsonl). Sizes as dan_kd_sst2.jsonnet.
local lib = import 'dan.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.dan('kd', 'runs/dan/sst2_full/kd*.teacher.jsonl', data + 'dev.tsv', data + 'test.tsv',
        max_features=200000, embedding_dim=200, batch_size=256, lr=1e-3, epochs=15, patience=4,
        dropout=0.2, ngram_dropout=0.1, temperature=1.0,
        label_names=labels.sst2)
