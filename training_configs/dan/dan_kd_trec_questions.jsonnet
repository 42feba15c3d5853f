// DAN(KD) on TREC with real questions added: as dan_kd_trec (training questions + 20 perturbed
// copies of each), plus the teacher's labels for the 30,851 sentences of 3-30 spaCy tokens ending
// in "?" in IMDB's unlabeled and training reviews (runs/dan/trec/imdb_questions.teacher.jsonl,
// benchmarks/runs/dan.sh trec_questions); its glob reads every teacher cache in runs/dan/trec. Movie-review questions are not TREC's factoid ones, but
// they are the only unlabeled questions here (the paper used 65M PAQ questions).
local lib = import 'dan.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/trec/';

lib.dan('kd', 'runs/dan/trec/*.teacher.jsonl', data + 'train.txt', data + 'test.txt', max_features=100000,
        embedding_dim=200, batch_size=64, lr=1e-3, epochs=20, patience=5, dropout=0.2, ngram_dropout=0.1,
        temperature=2.0, dev_split='dev')
