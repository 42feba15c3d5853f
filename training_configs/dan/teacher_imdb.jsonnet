// MiniLM-L6 teacher on IMDB (train 25k, test 25k reviews, both sorted by label; no dev split).
// CPU-sized, and said so: every 2nd training review (12,500, balanced), word pieces cut at 256,
// one epoch (an earlier teacher on every 12th review, 2,084, scored below the DAN trained from
// scratch). Validation on other training reviews (every 12th from the 8th on, 2,083, odd indices, disjoint
// from the training sample); with one epoch and no early stopping it selects nothing. The test
// set is left to benchmarks/dan/distillation.py, which says how much of it it scored.
local lib = import 'teacher.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.teacher(data + 'train.jsonl.gz', data + 'train.jsonl.gz', max_length=256,
            batch_size=16, epochs=1, warmup_steps=80) + {
  dataset_reader+: { sample_every: 2 },
  validation_dataset_reader+: { sample_every: 12, sample_offset: 7 },
}
