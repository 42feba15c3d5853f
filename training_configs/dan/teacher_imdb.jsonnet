// MiniLM-L6 teacher on IMDB (train 25k, test 25k reviews, both sorted by label; no dev split).
// CPU-sized, and said so: every 12th training review (2,084, balanced), word pieces cut at 256,
// one epoch; validation on every 25th test review (1,000). The benchmark scores the full
// test set only if time allows (it says how many it used).
local lib = import 'teacher.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.teacher(data + 'train.jsonl.gz', data + 'test.jsonl.gz', max_length=256,
            batch_size=16, epochs=1, warmup_steps=12) + {
  dataset_reader+: { sample_every: 12 },
  validation_dataset_reader+: { sample_every: 25 },
}
