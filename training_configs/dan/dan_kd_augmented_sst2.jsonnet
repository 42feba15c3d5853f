// DAN(KD) on SST-2 with augmented copies added to the distillation corpus: dan_kd_sst2's caches
// (training phrases + IMDB sentences) plus the teacher's logits for 5 perturbed copies of each of
// its 10,000 labeled phrases (green_nlp.data.augmentation, after Tang et al. 2019), written by
// benchmarks/runs/dan.sh into runs/dan/sst2/augmented.teacher.jsonl. The n-gram vocabulary comes
// from all of these texts. Sizes as dan_kd_sst2.
local lib = import 'dan.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.dan('kd', 'runs/dan/sst2/*.teacher.jsonl', data + 'dev.tsv', data + 'test.tsv',
        max_features=200000, embedding_dim=200, batch_size=256, lr=1e-3, epochs=15, patience=4,
        dropout=0.2, ngram_dropout=0.1, temperature=1.0,
        label_names=labels.sst2)
