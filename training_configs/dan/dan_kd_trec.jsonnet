// DAN(KD) on TREC: KL to the MiniLM teacher's logits for the 5,452 training questions
// (runs/dan/trec/kd.teacher.jsonl). The paper adds 65M PAQ questions as unlabeled corpus; no
// question corpus is available here, so distillation sees the training questions only.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/trec/';

lib.dan('kd', 'runs/dan/trec/kd.teacher.jsonl', data + 'test.txt', max_features=100000, embedding_dim=200,
        batch_size=64, lr=1e-3, epochs=20, patience=5, dropout=0.2, ngram_dropout=0.1, temperature=2.0)
