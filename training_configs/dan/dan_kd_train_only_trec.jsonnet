// Ablation of dan_kd_trec: the same DAN(KD), distilled on the teacher's logits for the 4,907
// training questions alone (runs/dan/trec/kd.teacher.jsonl), without the augmented copies.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/trec/';

lib.dan('kd', 'runs/dan/trec/kd.teacher.jsonl', data + 'train.txt', data + 'test.txt', max_features=100000,
        embedding_dim=200, batch_size=64, lr=1e-3, epochs=20, patience=5, dropout=0.2, ngram_dropout=0.1,
        temperature=2.0, dev_split='dev')
