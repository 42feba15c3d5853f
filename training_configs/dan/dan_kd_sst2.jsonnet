// DAN(KD) on SST-2 (Ye et al. 2022, stage 2): KL to the MiniLM teacher's distribution over the
// distillation corpus: the teacher's logits for SST-2 training phrases (its own 10,000 labeled
// ones + phrases whose labels are never used) and for 40,000 sentences of IMDB's unlabeled
// reviews, written once by green-label-teacher into runs/dan/sst2/kd*.teacher.jsonl (see
// benchmarks/runs/dan.sh). The paper's corpus for SST-2 is Amazon reviews, not available here.
// Sizes as dan_scratch_sst2.
local lib = import 'dan.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.dan('kd', 'runs/dan/sst2/kd*.teacher.jsonl', data + 'dev.tsv', data + 'test.tsv',
        max_features=200000, embedding_dim=200, batch_size=256, lr=1e-3, epochs=15, patience=4,
        dropout=0.2, ngram_dropout=0.1, temperature=1.0,
        label_names=labels.sst2)
