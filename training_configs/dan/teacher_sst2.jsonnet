// MiniLM-L6 teacher on SST-2 (GLUE split: train 67,349 phrases, dev 872, test 1,821 sentences).
// CPU-sized, and said so: the first 10,000 training phrases, word pieces cut at 64, one epoch.
// The rest of the training set serves as unlabeled distillation text (student.jsonnet, DATASET=sst2 STAGE=kd).
local lib = import 'teacher.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.teacher(data + 'train.tsv', data + 'dev.tsv', data + 'test.tsv',
            max_length=64, max_train_examples=10000, epochs=1, warmup_steps=25,
            label_names=labels.sst2)
