// DAN(KD) on TREC: KL to the MiniLM teacher's logits for the 4,907 training questions (the train
// part; every 10th question is held out as dev) and for 20 perturbed copies of each (masked or
// replaced words, n-gram cuts; green_nlp.data.augmentation), all written by green-label-teacher into
// runs/dan/trec/kd*.teacher.jsonl (benchmarks/runs/dan.sh). The paper adds 65M PAQ questions as
// unlabeled corpus; no question corpus is available here, so augmentation stands in for it.
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/trec/';

lib.dan('kd', 'runs/dan/trec/kd*.teacher.jsonl', data + 'train.txt', data + 'test.txt', max_features=100000,
        embedding_dim=200, batch_size=64, lr=1e-3, epochs=20, patience=5, dropout=0.2, ngram_dropout=0.1,
        temperature=2.0, dev_split='dev')
